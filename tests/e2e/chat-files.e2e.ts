import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { makePdf } from "../helpers/make-pdf.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, apiAs as signInApi, startHarness, uniqueAccount } from "./support/harness.js";
import { shootViews } from "./support/screenshot-path.js";

// Issue 30 in the chat: files attached by the paperclip, by dropping and by pasting, each a chip that says where it
// stands; images as thumbnails and the warning for a model that cannot see them; a reply's citations and their
// side panel; collections attached to a chat.
const h = startHarness();
let fake: FakeProvider;
// gpt-4o-mini reads images, gpt-3.5-turbo does not (shared/model-catalog.ts `acceptsImages`).
const VISION = "gpt-4o-mini";
const BLIND = "gpt-3.5-turbo";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: [VISION, BLIND], freeModels: [VISION, BLIND], defaultModel: VISION });
});
afterAll(async () => {
  await fake?.close();
});

const apiAs = (account: { username: string; password: string }) => signInApi(h, account);

async function member() {
  const account = await registerViaApi(h, uniqueAccount("files"));
  return { account, api: await apiAs(account) };
}

const box = (page: Page) => page.getByRole("textbox", { name: "Message" });
const attached = (page: Page) => page.getByRole("list", { name: "Attached files" });
const replies = (page: Page) => page.locator('[data-message-role="assistant"]');
const lastReply = (page: Page) => replies(page).last();
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });

async function openNewChat(page: Page) {
  await page.goto("/chat");
  await box(page).waitFor();
}

async function send(page: Page, text: string) {
  await box(page).fill(text);
  await expect.poll(() => sendButton(page).isEnabled(), { timeout: 20_000 }).toBe(true);
  await box(page).press("Enter");
}

/** A chip is ready once it says nothing more than its name and size (no state line, no spinner). */
async function waitReady(page: Page, name: string) {
  const chip = attached(page).locator("li", { hasText: name });
  await chip.waitFor();
  await expect.poll(() => chip.locator("[data-file-state]").getAttribute("data-file-state"), { timeout: 20_000 }).toBe("done");
  return chip;
}

/** A PNG drawn in the page (a real image, typed by its bytes on the server). */
async function pngInPage(page: Page, colour: string) {
  return page.evaluateHandle(async (fill) => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no canvas");
    context.fillStyle = fill;
    context.fillRect(0, 0, 64, 48);
    context.fillStyle = "#fff";
    context.fillRect(8, 8, 20, 20);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("no png");
    return new File([blob], "image.png", { type: "image/png" });
  }, colour);
}

/** Pastes an image into the message box, as a screenshot pasted from the clipboard. */
async function pasteImage(page: Page, colour = "#2563eb") {
  const file = await pngInPage(page, colour);
  await page.evaluate((image) => {
    const data = new DataTransfer();
    data.items.add(image);
    const target = document.querySelector('textarea[aria-label="Message"]');
    if (!target) throw new Error("no message box");
    target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, file);
}

/** A page whose theme follows the system's, so a screenshot can be taken light and dark without a reload. */
async function newPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

/** The screen as it is, at 1440 and 390 px, light and dark; then back to the size it had. */
const shoot = (page: Page, name: string) => shootViews(page, `chat-files-${name}`, { back: page.viewportSize() ?? undefined });

async function lastRequestText() {
  const body = fake.requests.at(-1)?.rawBody ?? "";
  return body;
}

describe("files in the chat", () => {
  it("attaches a text file with the paperclip, waits for it to be read, sends it and shows it in the message", async () => {
    const { account, api } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("The secret word is pineapple.") }]);
    const chip = attached(page).locator("li", { hasText: "notes.txt" });
    await chip.waitFor();
    expect(await chip.innerText()).toContain("29 B");
    await waitReady(page, "notes.txt");

    // An unsupported file is refused with the reason, in the toast style of the limits.
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: "tool.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") }]);
    const toast = page.locator("[data-sonner-toast]", { hasText: "Cannot attach file" }).first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain("tool.exe is not a supported file");

    const before = fake.requests.length;
    await send(page, "Read the file");
    await page.locator('[data-message-role="user"]', { hasText: "Read the file" }).getByText("notes.txt").waitFor();
    await lastReply(page).getByText("Echo: Read the file").waitFor();
    await sendButton(page).waitFor();
    expect(fake.requests.length).toBe(before + 1);
    expect(await lastRequestText()).toContain("pineapple");
    expect(await attached(page).count()).toBe(0);

    // The message names the library file it carried.
    const chatId = Number(new URL(page.url()).pathname.split("/")[2]);
    const stored = (await api.get(`/api/chats/${chatId}/messages`)).json() as {
      role: string;
      attachments: { name: string; fileId: number }[];
    }[];
    const sent = stored.find((m) => m.role === "user");
    expect(sent?.attachments.map((a) => a.name)).toEqual(["notes.txt"]);
    // Sent, it is a library file like any other: no longer a message's unsent file (decision 068).
    const file = await api.get(`/api/files/${sent?.attachments[0]?.fileId}`);
    expect(file.statusCode).toBe(200);
    expect(file.json()).toMatchObject({ name: "notes.txt", unsentUntil: null });
  });

  it("deletes a file taken off the message before sending, and waits for files before sending", async () => {
    const { account, api } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    await box(page).fill("Wait for it");
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: "draft.md", mimeType: "text/markdown", buffer: Buffer.from("# Draft\n\nSome words.") }]);
    // Until the file is read, Send waits and says why.
    await page.getByText("Waiting for files to be read…").waitFor();
    expect(await sendButton(page).isDisabled()).toBe(true);
    await waitReady(page, "draft.md");
    expect(await sendButton(page).isEnabled()).toBe(true);

    const listed = (await api.get("/api/files")).json() as { id: number; name: string; unsentUntil: string | null }[];
    const draft = listed.find((f) => f.name === "draft.md");
    expect(draft).toBeDefined();
    // Uploaded for the message (decision 068): unsent, so a closed tab leaves it to the sweep, not in the library for good.
    expect(draft?.unsentUntil).not.toBeNull();
    await page.getByRole("button", { name: "Remove draft.md" }).click();
    expect(await attached(page).count()).toBe(0);
    await expect.poll(async () => (await api.get(`/api/files/${draft?.id}`)).statusCode).toBe(404);
  });

  it("shows a file the server refuses as failed with the reason, and Send waits until it is removed", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    await page.locator('input[type="file"]').setInputFiles([
      { name: "report.md", mimeType: "text/markdown", buffer: Buffer.from("# Report\n\nAll is well.") },
      // Named an image, but text: the server types files by their bytes.
      { name: "holiday.png", mimeType: "image/png", buffer: Buffer.from("this is not an image at all") },
    ]);
    await pasteImage(page, "#16a34a");
    await waitReady(page, "report.md");
    await waitReady(page, "pasted-image-1.png");
    const failed = attached(page).locator("li", { hasText: "holiday.png" });
    await expect.poll(() => failed.locator("[data-file-state]").getAttribute("data-file-state"), { timeout: 20_000 }).toBe("failed");
    expect(await failed.getByRole("alert").innerText()).toMatch(/^Failed: .+/);
    await box(page).fill("Summarise these");
    await page.getByText("Remove the files that could not be read to send.").waitFor();
    expect(await sendButton(page).isDisabled()).toBe(true);
    await shoot(page, "chips");
    await page.getByRole("button", { name: "Remove holiday.png" }).click();
    await expect.poll(() => sendButton(page).isEnabled()).toBe(true);
  });

  it("attaches at most 10 files to a message and says so", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    const many = Array.from({ length: 11 }, (_, i) => ({
      name: `part-${i + 1}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from(`Part ${i + 1}.`),
    }));
    await page.locator('input[type="file"]').setInputFiles(many);
    const toast = page.locator("[data-sonner-toast]", { hasText: "Cannot attach file" }).first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain("Attach at most 10 files to a message.");
    await expect.poll(() => attached(page).locator("li").count()).toBe(10);
    expect(await attached(page).getByText("part-11.txt").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Attach files" }).isDisabled()).toBe(true);
  });

  it("attaches a file dropped on the chat, showing the drop zone while it is dragged", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    const data = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["Dropped text about cells."], "dropped.txt", { type: "text/plain" }));
      return transfer;
    });
    await page.dispatchEvent('[role="log"]', "dragenter", { dataTransfer: data });
    await page.getByText("Drop files to attach them").waitFor();
    await shoot(page, "drop-zone");
    await page.dispatchEvent('[role="log"]', "dragover", { dataTransfer: data });
    await page.dispatchEvent('[role="log"]', "drop", { dataTransfer: data });
    expect(await page.getByText("Drop files to attach them").count()).toBe(0);
    await waitReady(page, "dropped.txt");
  });

  it("pastes an image as a thumbnail chip, warns before sending it to a model that cannot see, and switches to one that can", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    await send(page, "Start a chat");
    await lastReply(page).getByText("Echo: Start a chat").waitFor();
    await sendButton(page).waitFor();
    await page.getByRole("combobox", { name: /model/i }).first().click();
    await page.getByRole("option", { name: /GPT-3\.5/ }).click();

    await pasteImage(page);
    const chip = await waitReady(page, "pasted-image-1.png");
    expect(await chip.locator("img").count()).toBe(1);
    const warning = page.getByRole("alert").filter({ hasText: "Switch to" });
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(/image/i);
    await box(page).fill("What is in the picture?");
    expect(await sendButton(page).isDisabled()).toBe(true);
    await shoot(page, "vision");

    await warning.getByRole("button", { name: /GPT-4o mini/i }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Switch to" }).count()).toBe(0);
    await box(page).press("Enter");
    const sent = page.locator('[data-message-role="user"]', { hasText: "What is in the picture?" });
    const thumbnail = sent.getByRole("img", { name: "pasted-image-1.png" });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
    await lastReply(page).getByText("Echo: What is in the picture?").waitFor();
    await sendButton(page).waitFor();
    // The image went to the model as an image part.
    expect(await lastRequestText()).toContain("image_url");

    await sent.getByRole("button", { name: "Open pasted-image-1.png full size" }).click();
    const dialog = page.getByRole("dialog", { name: "pasted-image-1.png" });
    await dialog.getByRole("img", { name: "pasted-image-1.png" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("links a reply's citations to their passages, leaves an invented one as text, and lists the sources", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    await page.locator('input[type="file"]').setInputFiles([
      {
        name: "biology.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("# Cells\n\n## Mitosis\n\nMitosis is how a cell divides into two identical daughter cells.\n"),
      },
    ]);
    await waitReady(page, "biology.md");
    await send(page, "How do cells divide? Mitosis [1], not [9].");
    const reply = lastReply(page);
    await reply.getByText("Echo:", { exact: false }).waitFor();
    await sendButton(page).waitFor();
    const source = reply.getByRole("button", { name: /^Source 1: biology\.md/ });
    await source.waitFor();
    // The invented [9] matches no passage: plain text, no link.
    expect(await reply.getByRole("button", { name: /^Source 9/ }).count()).toBe(0);
    expect(await reply.innerText()).toContain("[9]");
    await reply.locator("[data-sources]").getByRole("button", { name: "biology.md" }).waitFor();

    await source.click();
    const panel = page.getByRole("dialog", { name: "Source 1" });
    await panel.getByText("biology.md").first().waitFor();
    await panel.getByLabel("Passage").getByText("Mitosis", { exact: false }).waitFor();
    expect(await panel.getByRole("link", { name: "Download biology.md" }).getAttribute("href")).toMatch(/^\/api\/files\/\d+\/content$/);
    await shoot(page, "citation");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  });

  it("answers from page 31 of a 40-page PDF and opens that page's passage (issue 30's first Done-when)", async () => {
    const { account } = await member();
    const page = await newPage();
    await signIn(page, account);
    await openNewChat(page);
    const filler = "Cells divide and grow while the membrane keeps the inside apart from the outside world. ".repeat(20);
    const answer = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";
    const pdf = await makePdf(Array.from({ length: 40 }, (_, i) => (i + 1 === 31 ? `Page 31. ${answer}` : `Page ${i + 1}. ${filler}`)));
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: "biology.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) }]);
    await waitReady(page, "biology.pdf");
    await send(page, "What does the quokkatron enzyme do? [1]");
    const reply = lastReply(page);
    await reply.getByText("Echo:", { exact: false }).waitFor();
    await sendButton(page).waitFor();
    const source = reply.getByRole("button", { name: /^Source 1: biology\.pdf, page 31/ });
    await source.waitFor();
    await source.click();
    const panel = page.getByRole("dialog", { name: "Source 1" });
    await panel.getByText("biology.pdf").first().waitFor();
    await panel
      .getByText(/page 31/i)
      .first()
      .waitFor();
    await panel.getByLabel("Passage").getByText("quokkatron", { exact: false }).waitFor();
    await shoot(page, "pdf-page-31");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  });

  it("attaches collections to a chat from the header menu, and says when there are none", async () => {
    const { account, api } = await member();
    const created = await api.post("/api/collections", { name: "Biology 101" });
    expect(created.statusCode, created.body).toBe(201);
    await api.post("/api/collections", { name: "Company handbook" });
    const chat = (await api.post("/api/chats", {})).json() as { id: number };

    const page = await newPage();
    await signIn(page, account);
    await page.goto(`/chat/${chat.id}`);
    await page.getByRole("button", { name: "Chat options" }).click();
    await page.getByRole("menuitem", { name: /Knowledge/ }).click();
    const dialog = page.getByRole("dialog", { name: "Knowledge" });
    await dialog.getByText("Biology 101").waitFor();
    await dialog.getByRole("checkbox").first().click();
    await dialog.getByRole("checkbox").nth(1).click();
    await shoot(page, "knowledge");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "2 collections" }).waitFor();
    const stored = (await api.get(`/api/chats/${chat.id}`)).json() as { collectionIds: number[] };
    expect(stored.collectionIds).toHaveLength(2);

    // Another user has none: the dialog says so and leads to the library.
    const other = await member();
    const otherChat = (await other.api.post("/api/chats", {})).json() as { id: number };
    const page2 = await newPage();
    await signIn(page2, other.account);
    await page2.goto(`/chat/${otherChat.id}`);
    await page2.getByRole("button", { name: "Chat options" }).click();
    await page2.getByRole("menuitem", { name: /Knowledge/ }).click();
    const empty = page2.getByRole("dialog", { name: "Knowledge" });
    await empty.getByText("No collections yet").waitFor();
    expect(await empty.getByRole("link").getAttribute("href")).toBe("/knowledge");
    expect(await page2.getByRole("button", { name: /collections?$/ }).count()).toBe(0);
  });
});
