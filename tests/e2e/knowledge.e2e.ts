// The knowledge library (issue 30, decision 035) in Chromium: the empty library, a new collection, uploads with the
// file chooser (text and Markdown) and by dropping a file on the page, the files listed with their state, rename,
// move to another collection, delete (a file, then a collection with its files), a refused file's message, the empty
// collection. The ingestion worker reads each file in the background: the state the page shows goes on to "Ready".
// Screenshots at 1440 and 390 px, light and dark.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { NOT_AN_IMAGE_MESSAGE } from "../../src/server/modules/knowledge/reading/file-kind.js";
import { FILE_LIMIT_MESSAGES, formatBytes, type KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import { FULL_TEXT_ONLY } from "../../src/web/features/knowledge/full-text-note.js";
import { seedFile } from "../helpers/library-seed.js";
import { multipartFile } from "../helpers/multipart.js";
import { seriousFindings } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let member: { username: string; password: string };
let admin: { username: string; password: string };

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("admin"));
  member = await registerViaApi(h, uniqueAccount("reader"));
});

async function asTheme(page: Page, theme: "light" | "dark") {
  await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
}

const fileRow = (page: Page, name: string) => page.getByTestId("knowledge-file").filter({ hasText: name });

/** One of the library's two meters (decision 068), by its name: "Storage" (bytes) or "Files". */
const meter = (page: Page, name: "Storage" | "Files") => page.getByRole("meter", { name, exact: true });

/** Both meters say these words, each beside its label and as its bar's value. */
async function expectMeters(page: Page, bytes: string, files: string) {
  await page.getByTestId("knowledge-storage-bytes").getByText(bytes, { exact: true }).waitFor();
  await page.getByTestId("knowledge-storage-files").getByText(files, { exact: true }).waitFor();
  expect(await meter(page, "Storage").getAttribute("aria-valuetext")).toBe(bytes);
  expect(await meter(page, "Files").getAttribute("aria-valuetext")).toBe(files);
}

/** Drops a file built in the page onto the library, as a dragged file from the desktop would arrive. */
async function dropFile(page: Page, name: string, content: string, type: string) {
  await page.evaluate(
    ({ name, content, type }) => {
      const target = document.querySelector('[data-testid="knowledge-page"]');
      if (!target) throw new Error("no library page");
      const data = new DataTransfer();
      data.items.add(new File([content], name, { type }));
      target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: data }));
      target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: data }));
    },
    { name, content, type },
  );
}

describe("knowledge library", () => {
  it("collections, uploads (chooser and drop), rename, move, delete, a refused file, empty states", { timeout: 180_000 }, async () => {
    const page = await h.newPage();
    await asTheme(page, "light");
    await signIn(page, member);
    await page.getByRole("link", { name: "Knowledge" }).first().click();
    await page.waitForURL("**/knowledge");
    await expect.poll(() => page.title()).toMatch(/^Knowledge · /);
    await page
      .getByTestId("knowledge-empty")
      .getByText("No files yet. Upload PDFs, Word documents, text, Markdown, HTML, CSV, JSON, code or images.")
      .waitFor();
    await expectMeters(page, "0 bytes of 50 MB", "0 of 20 files");
    // No embedding model is set up here: the library says its searches are by words only.
    await page.getByTestId("knowledge-full-text-only").getByText(FULL_TEXT_ONLY).waitFor();

    // A collection, chosen at once, and empty.
    await page.getByRole("button", { name: "New collection" }).last().click();
    const dialog = page.getByRole("dialog", { name: "New collection" });
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByText("Name is required").waitFor();
    await dialog.getByLabel("Name").fill("Biology 101");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Biology 101" }).waitFor();
    await page.getByText("This collection has no files yet.", { exact: false }).waitFor();

    // Two files with the chooser into the collection.
    await page.getByTestId("knowledge-file-input").setInputFiles([
      { name: "cells.txt", mimeType: "text/plain", buffer: Buffer.from("Cells are the smallest units of life.") },
      { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Notes\n\nMitochondria make energy.") },
    ]);
    await fileRow(page, "cells.txt").waitFor();
    await fileRow(page, "notes.md").waitFor();
    await expect.poll(() => fileRow(page, "notes.md").textContent()).toContain("Markdown");
    // The page asks again while a file is not final, so it shows the worker's end without a reload.
    await expect.poll(() => fileRow(page, "cells.txt").getByTestId("file-state").textContent(), { timeout: 20_000 }).toBe("Ready");
    const nav = page.getByRole("navigation", { name: "Collections" });
    await expect.poll(() => nav.getByRole("button").filter({ hasText: "Biology 101" }).textContent()).toContain("2");

    // One dropped on the page.
    await dropFile(page, "dropped.csv", "a,b\n1,2\n", "text/csv");
    await fileRow(page, "dropped.csv").waitFor();
    await expect.poll(() => fileRow(page, "dropped.csv").textContent()).toContain("CSV");

    // A refused one: its server message stays on screen.
    await page
      .getByTestId("knowledge-file-input")
      .setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("not an image") }]);
    await page.getByTestId("knowledge-upload").getByText(NOT_AN_IMAGE_MESSAGE).waitFor();
    await page.screenshot({ path: screenshotPath("knowledge-1440-light.png"), animations: "disabled", fullPage: true });
    await page.getByTestId("knowledge-upload").getByRole("button", { name: "Dismiss" }).click();

    // Rename.
    await fileRow(page, "cells.txt").getByRole("button", { name: "Actions for cells.txt" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename file" });
    await rename.getByLabel("Name").fill("Cell biology.txt");
    await rename.getByRole("button", { name: "Save" }).click();
    await fileRow(page, "Cell biology.txt").waitFor();

    // Move to another collection.
    await page.getByRole("button", { name: "New collection" }).last().click();
    await page.getByRole("dialog", { name: "New collection" }).getByLabel("Name").fill("Handbook");
    await page.getByRole("dialog", { name: "New collection" }).getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Handbook" }).waitFor();
    await nav.getByRole("button").filter({ hasText: "Biology 101" }).click();
    await fileRow(page, "notes.md").getByRole("button", { name: "Actions for notes.md" }).click();
    await page.getByRole("menuitem", { name: "Handbook" }).click();
    await expect.poll(() => fileRow(page, "notes.md").count()).toBe(0);
    await nav.getByRole("button").filter({ hasText: "Handbook" }).click();
    await fileRow(page, "notes.md").waitFor();

    // Delete a file.
    await fileRow(page, "notes.md").getByRole("button", { name: "Actions for notes.md" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete “notes.md”?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByText("This collection has no files yet.", { exact: false }).waitFor();

    // Delete a collection: the confirmation says its files go too.
    await nav.getByRole("button", { name: "Actions for collection Biology 101" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete “Biology 101”?" });
    await confirm.getByText(/Its 2 files are deleted too/).waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => nav.getByRole("button").filter({ hasText: "Biology 101" }).count()).toBe(0);
    // Handbook (shown) stays; All files is empty again (the dropped file was in Biology 101 too).
    await page.getByRole("heading", { name: "Handbook" }).waitFor();
    await nav.getByRole("button").filter({ hasText: "All files" }).click();
    await page.getByRole("heading", { name: "All files" }).waitFor();
    await page.getByText("No files yet.", { exact: false }).waitFor();
    await expectMeters(page, "0 bytes of 50 MB", "0 of 20 files");
  });

  it("looks right at 1440 and 390 px, light and dark", { timeout: 180_000 }, async () => {
    for (const theme of ["light", "dark"] as const) {
      for (const width of [1440, 390]) {
        const page = await h.newPage({ width, height: width === 390 ? 844 : 900 });
        await asTheme(page, theme);
        await signIn(page, member);
        await page.goto("/knowledge");
        await page.getByTestId("knowledge-storage").waitFor();
        if (theme === "light" && width === 1440) {
          await page.getByTestId("knowledge-file-input").setInputFiles([
            { name: "syllabus.md", mimeType: "text/markdown", buffer: Buffer.from("# Syllabus\n\nWeek 1: cells.") },
            { name: "handbook.html", mimeType: "text/html", buffer: Buffer.from("<h1>Handbook</h1><p>Holidays.</p>") },
          ]);
        }
        await fileRow(page, "syllabus.md").waitFor();
        if (width === 390) {
          await page.getByLabel("Collection", { exact: true }).waitFor();
          await page.getByRole("button", { name: "New collection" }).first().waitFor();
        }
        await page.screenshot({ path: screenshotPath(`knowledge-${width}-${theme}.png`), animations: "disabled", fullPage: true });
        await page.close();
      }
    }
  });
});

describe("a long library", () => {
  it("shows 50 files, then the rest with Load more", { timeout: 120_000 }, async () => {
    // Rows as a finished reading leaves them (the worker has nothing to do), more than one page of the list.
    const owner = await registerViaApi(h, uniqueAccount("hoarder"));
    for (let i = 1; i <= 53; i++) {
      await seedFile(h.database.db, {
        userId: owner.id,
        name: `note-${String(i).padStart(2, "0")}.md`,
        chunks: [{ content: `Note ${i}` }],
      });
    }
    const page = await h.newPage();
    await signIn(page, owner);
    await page.goto("/knowledge");
    await fileRow(page, "note-53.md").waitFor();
    await page.getByText("Showing 50 files").waitFor();
    expect(await page.getByTestId("knowledge-file").count()).toBe(50);
    expect(await fileRow(page, "note-03.md").count()).toBe(0);
    await page.getByRole("button", { name: "Load more" }).click();
    await fileRow(page, "note-01.md").waitFor();
    await page.getByText("Showing 53 files (all)").waitFor();
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
  });
});

describe("the two meters, a file that cannot be read, a file not sent yet (decision 068)", () => {
  it("each limit has its own meter; an unreadable file offers Delete, not Retry; an unsent file says when it goes", {
    timeout: 180_000,
  }, async () => {
    const keeper = await registerViaApi(h, uniqueAccount("keeper"));
    const api = await apiAs(h, keeper);
    const put = async (name: string, body: string, fields: Record<string, string> = {}) => {
      const res = await api.request({
        method: "POST",
        url: "/api/files",
        ...multipartFile("file", name, "application/octet-stream", Buffer.from(body), fields),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as KnowledgeFile;
    };
    const stored = [
      await put("syllabus.md", "# Syllabus\n\nWeek 1: cells. Week 2: tissues. Week 3: organs."),
      await put("glossary.txt", "Osmosis: water moving across a membrane."),
      // Damaged: its bytes say PDF, but nothing in it can be read.
      await put("scan.pdf", "%PDF-1.7 the rest of this scan never arrived"),
      await put("lab-photo-notes.txt", "Notes for the message I am writing.", { purpose: "message" }),
    ];
    // A failure that may pass (the provider was away): Retry stays.
    const later = await seedFile(h.database.db, {
      userId: keeper.id,
      name: "handbook.md",
      status: "failed",
      error: "We could not index this file: the embedding provider answered 500. Retry later.",
      chunks: [{ content: "# Handbook" }],
    });
    const [broken] = stored.filter((file) => file.name === "scan.pdf");
    await expect.poll(async () => (await api.get(`/api/files/${broken?.id}`)).json().status, { timeout: 30_000 }).toBe("failed");
    const total = stored.reduce((sum, file) => sum + file.size, 0) + "# Handbook".length;

    for (const [width, theme] of [
      [1440, "light"],
      [390, "light"],
      [390, "dark"],
    ] as const) {
      const page = await h.newPage({ width, height: width === 390 ? 844 : 900 });
      await asTheme(page, theme);
      await signIn(page, keeper);
      await page.goto("/knowledge");
      // Five files of 20 hold a few hundred bytes of 50 MB: each meter follows its own limit.
      await expectMeters(page, `${formatBytes(total)} of 50 MB`, "5 of 20 files");
      expect(await meter(page, "Files").getAttribute("aria-valuenow")).toBe("5");
      expect(await meter(page, "Files").getAttribute("aria-valuemax")).toBe("20");
      expect(await meter(page, "Storage").getAttribute("aria-valuenow")).toBe(String(total));

      const scan = fileRow(page, "scan.pdf");
      await scan.getByText(FILE_LIMIT_MESSAGES.uploadReadableCopy, { exact: false }).waitFor();
      expect(await scan.getByRole("button", { name: "Retry" }).count()).toBe(0);
      await scan.getByRole("button", { name: "Delete scan.pdf" }).waitFor();
      await fileRow(page, "handbook.md").getByRole("button", { name: "Retry" }).waitFor();
      expect(await fileRow(page, "handbook.md").getByRole("button", { name: "Delete handbook.md" }).count()).toBe(0);
      await fileRow(page, "lab-photo-notes.txt")
        .getByTestId("knowledge-file-unsent")
        .getByText(/^Attached to a message not sent yet: deleted .+ unless the message is sent or you move it into a collection\.$/)
        .waitFor();
      // The meters, the Delete in place of Retry and the note pass axe (serious or critical: none).
      expect(await seriousFindings(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`knowledge-meters-${width}-${theme}.png`), animations: "disabled", fullPage: true });
      await page.getByTestId("knowledge-storage").screenshot({ path: screenshotPath(`knowledge-meters-close-${width}-${theme}.png`) });
      if (width === 390 && theme === "dark") {
        // Delete, offered in place of Retry, asks first; then the file and its count are gone.
        await scan.getByRole("button", { name: "Delete scan.pdf" }).click();
        await page.getByRole("dialog", { name: "Delete “scan.pdf”?" }).getByRole("button", { name: "Delete" }).click();
        await expect.poll(() => scan.count()).toBe(0);
        await expectMeters(page, `${formatBytes(total - (broken?.size ?? 0))} of 50 MB`, "4 of 20 files");
      }
      await page.close();
    }
    expect(later).toBeGreaterThan(0);
  });
});

describe("library limits", () => {
  it("the admin edits them on Payment Settings (MB in the form); the dashboard shows the member's storage", {
    timeout: 120_000,
  }, async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/admin/payment-settings");
    const card = page.getByRole("form", { name: "Knowledge library limits" });
    await expect.poll(() => card.getByLabel("Storage (MB)").first().inputValue()).toBe("50");
    await card.getByLabel("Largest file (MB)").first().fill("600");
    await card.getByRole("button", { name: "Save Library Limits" }).click();
    await card.getByText("Limit cannot exceed 512 MB").waitFor();
    await card.getByLabel("Largest file (MB)").first().fill("0.5");
    await card.getByLabel("Files per user").first().fill("10");
    await card.getByRole("button", { name: "Save Library Limits" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Library limits updated" }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: screenshotPath("knowledge-admin-limits-1440.png"), animations: "disabled" });

    const memberPage = await h.newPage();
    await signIn(memberPage, member);
    await memberPage.goto("/dashboard");
    await memberPage
      .getByTestId("storage-usage")
      .getByText(/of 50 MB · \d+ of 10 files/)
      .waitFor();
    await memberPage.goto("/knowledge");
    await expect.poll(() => meter(memberPage, "Storage").getAttribute("aria-valuetext")).toMatch(/ of 50 MB$/);
    await expect.poll(() => meter(memberPage, "Files").getAttribute("aria-valuetext")).toMatch(/^\d+ of 10 files$/);
  });
});
