import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { userActivityLogs } from "../../src/server/db/schema/index.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  // The first account on the empty database becomes the admin.
  admin = await registerViaApi(h, uniqueAccount("admin"));
  member = await registerViaApi(h, { ...uniqueAccount("member"), name: "Grace Hopper" });
});

async function toast(page: Page, text: string) {
  const found = page.locator("[data-sonner-toast]", { hasText: text }).first();
  await found.waitFor();
  return found.innerText();
}

/** Players are outside the test machine: answer them with a stand-in page. */
async function fakePlayers(page: Page) {
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p>player</p>" }),
  );
}

async function openAdminPage(page: Page, entry: string, heading: string) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  const nav = page.getByRole("navigation", { name: "Admin" });
  if (await page.getByRole("button", { name: "Expand menu" }).isVisible()) await page.getByRole("button", { name: "Expand menu" }).click();
  await nav.getByRole("link", { name: entry }).click();
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

/** The rows' titles as drawn; after a change, polled: the toast comes with the answer, the list's read after it. */
const rowTitles = (page: Page) => page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")));

async function addVideo(page: Page, fields: { title: string; subtitle?: string; url: string; expectedOrder: string }) {
  await page.getByRole("button", { name: "Add Video" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Video" });
  expect(await dialog.getByLabel("Order").inputValue()).toBe(fields.expectedOrder);
  await dialog.getByLabel("Title", { exact: true }).fill(fields.title);
  if (fields.subtitle) await dialog.getByLabel("Subtitle").fill(fields.subtitle);
  await dialog.getByLabel("Embed URL").fill(fields.url);
  await dialog.getByRole("button", { name: "Add Video" }).click();
  await toast(page, "Video has been added successfully");
  await dialog.waitFor({ state: "detached" });
}

describe("admin: Getting Started Videos", () => {
  it("adds, checks, edits, previews, reorders and deletes videos", async () => {
    const page = await h.newPage();
    await fakePlayers(page);
    await openAdminPage(page, "Getting Started Videos", "Getting Started Videos");
    expect(new URL(page.url()).pathname).toBe("/admin/getting-started");
    await page.getByText("No getting started videos found.").waitFor();

    // The first video, through every rule of the form.
    await page.getByRole("button", { name: "Add Your First Video" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Video" });
    expect(await dialog.getByLabel("Order").inputValue()).toBe("1");
    expect(await dialog.getByRole("switch", { name: "Active Status" }).getAttribute("aria-checked")).toBe("true");
    expect(await dialog.getByLabel("Description").getAttribute("rows")).toBe("3");
    await dialog.getByRole("button", { name: "Add Video" }).click();
    await dialog.getByText("Title must be at least 3 characters").waitFor();
    await dialog.getByText("Please enter a valid URL").waitFor();
    await dialog.getByLabel("Title", { exact: true }).fill("ab");
    await dialog.getByLabel("Embed URL").fill("javascript:alert(1)");
    await dialog.getByRole("button", { name: "Add Video" }).click();
    await dialog.getByText("Title must be at least 3 characters").waitFor();
    await dialog.getByText("Please enter a valid URL").waitFor();
    // An https address that is no video player: the server refuses it, under the field and in a toast.
    await dialog.getByLabel("Title", { exact: true }).fill("Welcome to the platform");
    await dialog.getByLabel("Embed URL").fill("https://evil.example/embed/1");
    await dialog.getByRole("button", { name: "Add Video" }).click();
    expect(await toast(page, "Error")).toContain("Failed to add video: Please enter a valid URL");
    await dialog.locator("#video-embedUrl-error").waitFor();
    await dialog.getByLabel("Subtitle").fill("A two-minute tour");
    await dialog.getByLabel("Description").fill("Where everything is.\nAnd how to start.");
    await dialog.getByLabel("Embed URL").fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    // Order left empty becomes 1 (non-numeric input becomes 1).
    await dialog.getByLabel("Order").fill("");
    await dialog.getByRole("button", { name: "Add Video" }).click();
    await toast(page, "Video has been added successfully");
    await dialog.waitFor({ state: "detached" });
    const first = page.getByRole("row", { name: "Welcome to the platform" });
    await first.getByText("A two-minute tour").filter({ visible: true }).waitFor();
    await first.getByText("Active", { exact: true }).waitFor();

    // Two more; each new one defaults to the highest order + 1.
    await addVideo(page, { title: "Your first chat", url: "https://vimeo.com/76979871", expectedOrder: "2" });
    await addVideo(page, { title: "Build a course", subtitle: "With AI help", url: "https://youtu.be/dQw4w9WgXcQ", expectedOrder: "3" });
    await expect.poll(() => rowTitles(page)).toEqual(["Welcome to the platform", "Your first chat", "Build a course"]);

    // The arrows are disabled at the ends; moving sends the new sequence.
    expect(await page.getByRole("button", { name: "Move Welcome to the platform up" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move Build a course down" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move Welcome to the platform down" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Move Build a course up" }).click();
    await toast(page, "Videos have been reordered successfully");
    await expect.poll(() => rowTitles(page)).toEqual(["Welcome to the platform", "Build a course", "Your first chat"]);
    await page.getByRole("button", { name: "Move Welcome to the platform down" }).click();
    await page.getByRole("button", { name: "Move Welcome to the platform up" }).and(page.locator(":enabled")).waitFor();
    await expect.poll(() => rowTitles(page)).toEqual(["Build a course", "Welcome to the platform", "Your first chat"]);
    expect(await page.getByRole("button", { name: "Move Build a course up" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move Your first chat down" }).isDisabled()).toBe(true);
    await page.reload();
    await page.getByRole("row", { name: "Build a course" }).waitFor();
    expect(await rowTitles(page)).toEqual(["Build a course", "Welcome to the platform", "Your first chat"]);

    // Edit: rename and switch off; the row says Inactive and the dashboard no longer lists it.
    await page.getByRole("button", { name: "Edit Your first chat" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Video" });
    expect(await edit.getByLabel("Title", { exact: true }).inputValue()).toBe("Your first chat");
    expect(await edit.getByLabel("Order").inputValue()).toBe("3");
    await edit.getByLabel("Title", { exact: true }).fill("Your first AI chat");
    await edit.getByRole("switch", { name: "Active Status" }).click();
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Video has been updated successfully");
    await page.getByRole("row", { name: "Your first AI chat" }).getByText("Inactive", { exact: true }).waitFor();
    const publicList = (await h.app.inject({ method: "GET", url: "/api/getting-started-videos" })).json() as { title: string }[];
    expect(publicList.map((v) => v.title)).toEqual(["Build a course", "Welcome to the platform"]);

    // Preview: the player, the order and the status.
    await page.getByRole("button", { name: "Preview Welcome to the platform" }).click();
    const preview = page.getByRole("dialog", { name: "Welcome to the platform" });
    expect(await preview.locator("iframe").getAttribute("src")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(await preview.locator("dl").innerText()).toMatch(/Order\s*2\s*Status\s*Active/);
    await preview.getByText("And how to start.").waitFor();
    await preview.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await page.screenshot({ path: screenshotPath("admin-videos-preview-1440.png") });
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });

    await page.screenshot({ path: screenshotPath("admin-videos-1440.png"), fullPage: true });

    // Delete, with a confirmation; Cancel keeps the video.
    await page.getByRole("button", { name: "Delete Build a course" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete video?" });
    await confirm.getByText('Are you sure you want to delete "Build a course"?').waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(await rowTitles(page)).toHaveLength(3);
    await page.getByRole("button", { name: "Delete Build a course" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Video has been deleted successfully");
    await expect.poll(() => rowTitles(page)).toEqual(["Welcome to the platform", "Your first AI chat"]);
    expect(await page.getByRole("button", { name: "Move Welcome to the platform up" }).isDisabled()).toBe(true);
    expect(await page.getByRole("row", { name: "Welcome to the platform" }).locator("td").first().innerText()).toContain("1");
  });

  it("fits a phone and the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await fakePlayers(phone);
    await openAdminPage(phone, "Getting Started Videos", "Getting Started Videos");
    await phone.getByRole("row", { name: "Welcome to the platform" }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: screenshotPath("admin-videos-390.png"), fullPage: true });
    await phone.getByRole("button", { name: "Add Video" }).click();
    const phoneDialog = phone.getByRole("dialog", { name: "Add Video" });
    await phoneDialog.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await phone.screenshot({ path: screenshotPath("admin-videos-dialog-390.png") });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openAdminPage(dark, "Getting Started Videos", "Getting Started Videos");
    await dark.getByRole("row", { name: "Your first AI chat" }).waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-videos-dark-1440.png"), fullPage: true });
  });
});

describe("admin: User Activity", () => {
  it("filters by action and search, pages, and downloads the CSV", async () => {
    // Real events: a failed login of an unknown name, a wrong password, and the member's sign-in.
    const agent = { "user-agent": "Walk-Agent/1.0" };
    await h.app.inject({ method: "POST", url: "/api/login", payload: { username: "mallory_x", password: "Wrong!pass1" }, headers: agent });
    await h.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: member.username, password: "Wrong!pass1" },
      headers: agent,
    });
    await h.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: member.username, password: member.password },
      headers: agent,
    });
    // Older rows: enough for a second page, one with a spreadsheet formula as its user agent.
    const old = Date.now() - 3 * 24 * 60 * 60 * 1000;
    await h.database.db.insert(userActivityLogs).values(
      Array.from({ length: 60 }, (_, i) => ({
        userId: member.id,
        action: "logout",
        ipAddress: `198.51.100.${i}`,
        userAgent: i === 0 ? '=HYPERLINK("http://evil.example","x")' : "Old-Agent",
        createdAt: new Date(old + i * 60_000),
      })),
    );
    // Insert order is not time order; the log is newest first by id, so push real events back to the top.
    await h.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: member.username, password: member.password },
      headers: agent,
    });

    const page = await h.newPage();
    await openAdminPage(page, "User Activity", "User Activity");
    const rows = page.locator("tbody tr");
    await rows.first().waitFor();
    // The newest row: the admin's own sign-in just now.
    expect(await rows.first().innerText()).toContain(admin.username);
    expect(await rows.count()).toBe(50);
    await page.getByText("Dates and times are in your time zone").waitFor();
    await page.screenshot({ path: screenshotPath("admin-activity-1440.png"), fullPage: false });
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(/Showing \d+ entries \(all\)/).waitFor();
    expect(await rows.count()).toBeGreaterThan(60);

    // Action filter: only failed logins, with the typed name for the unknown account.
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "Failed Login Attempt" }).click();
    await page.getByText("Showing 2 entries (all)").waitFor();
    const failed = await rows.allInnerTexts();
    expect(failed.every((text) => text.includes("Failed Login Attempt"))).toBe(true);
    expect(failed.join("\n")).toContain("mallory_x");
    expect(failed.join("\n")).toContain("No account");

    // Search (debounced, on the server): by name, then by IP, then nothing.
    await page.getByRole("searchbox", { name: "Search activity" }).fill("grace HOP");
    await page.getByText("Showing 1 entry (all)").waitFor();
    expect(await rows.first().innerText()).toContain(member.username);
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "All actions" }).click();
    await page.getByRole("searchbox", { name: "Search activity" }).fill("198.51.100.5");
    await page.getByText(/Showing 11 entries \(all\)/).waitFor();
    await page.getByRole("searchbox", { name: "Search activity" }).fill("nobody-matches-this");
    await page.getByText("No activity matches these filters.").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await rows.nth(49).waitFor();

    // Date filter: the old rows are not from today.
    await page.getByRole("combobox", { name: "Date" }).click();
    await page.getByRole("option", { name: "Today" }).click();
    await page.getByText(/Showing \d+ entries \(all\)/).waitFor();
    expect((await rows.allInnerTexts()).some((text) => text.includes("Old-Agent"))).toBe(false);

    // Export with the current filters (action = Failed Login Attempt): the browser downloads the file.
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "Failed Login Attempt" }).click();
    await page.getByText("Showing 2 entries (all)").waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^user-activity-\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    const lines = csv.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("User,Email,Action,Date/Time,IP Address,User Agent,Performed By");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${member.username},${member.email},Failed Login Attempt,`);
    expect(lines[2]).toContain("mallory_x (no account),,Failed Login Attempt,");

    // All rows: the formula in the old user agent is neutralised.
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "All actions" }).click();
    await page.getByRole("combobox", { name: "Date" }).click();
    await page.getByRole("option", { name: "All time" }).click();
    await rows.nth(49).waitFor();
    const [all] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    const allCsv = readFileSync(await all.path(), "utf8");
    expect(allCsv).toContain(`,198.51.100.0,"'=HYPERLINK(""http://evil.example"",""x"")",\r\n`);
  });

  it("shows who did it (an admin, or System with no IP) and reads a deleted account the same on every row and in the CSV", async () => {
    const page = await h.newPage();
    await openAdminPage(page, "User Activity", "User Activity");
    // An admin's acts, through the real API from the admin's own page: create two users, change one's plan, delete it.
    const status = await page.evaluate(async () => {
      const send = async (method: string, url: string, body?: object) =>
        (
          await fetch(url, {
            method,
            headers: body ? { "content-type": "application/json" } : {},
            body: body ? JSON.stringify(body) : undefined,
          })
        )
          .json()
          .catch(() => null);
      const gone = (await send("POST", "/api/admin/users", {
        username: "walk_gone",
        password: "Str0ng!pass",
        email: "gone@example.com",
      })) as {
        id: number;
      };
      await send("POST", "/api/admin/users", { username: "walk_kept", password: "Str0ng!pass" });
      await send("PATCH", `/api/admin/users/${gone.id}`, { planType: "earlyAccess" });
      const removed = await fetch(`/api/admin/users/${gone.id}`, { method: "DELETE" });
      return removed.status;
    });
    expect(status).toBe(204);
    // A row the server wrote itself (the checkout reconciler's; its own API test runs the real one).
    await h.database.db.insert(userActivityLogs).values({ userId: member.id, action: "early_access_purchase", bySystem: true });
    await page.reload();
    const rows = page.locator("tbody tr");
    await rows.first().waitFor();

    const system = rows.filter({ hasText: "Early Access Purchase" }).first();
    expect(await system.getByTestId("activity-actor").innerText()).toBe("by System");
    expect(await system.innerText()).not.toMatch(/stripe|checkout reconciler/i);
    const gone = rows.filter({ hasText: "walk_gone" });
    expect(await gone.count()).toBe(3);
    for (const text of await gone.allInnerTexts()) {
      expect(text).toContain("Deleted user");
      expect(text).not.toContain("No account");
    }
    const deleted = gone.filter({ hasText: "User Deleted" });
    expect(await deleted.getByTestId("activity-actor").innerText()).toBe(`by ${admin.username}`);
    const created = rows.filter({ hasText: "walk_kept" }).filter({ hasText: "User Created" });
    expect(await created.getByTestId("activity-actor").innerText()).toBe(`by ${admin.username}`);
    await page.screenshot({ path: screenshotPath("admin-activity-actors-1440.png"), fullPage: false });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    const lines = readFileSync(await download.path(), "utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    const goneLines = lines.filter((line) => line.includes("walk_gone"));
    expect(goneLines).toHaveLength(3);
    for (const line of goneLines) expect(line.startsWith("walk_gone (deleted user),")).toBe(true);
    expect(lines.find((line) => line.includes("Early Access Purchase"))).toMatch(/,,,System$/);

    for (const { width, theme } of SCREENSHOT_VIEWS.filter((view) => view.width !== 1440 || view.theme !== "light")) {
      const view = await h.newPage({ width, height: 900 });
      if (theme === "dark") await view.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await openAdminPage(view, "User Activity", "User Activity");
      // Each sign-in of this loop adds a row on top: bring the system row and the deleted account's rows into view.
      await view.locator("tbody tr").filter({ hasText: "Early Access Purchase" }).first().scrollIntoViewIfNeeded();
      await view.evaluate(() => window.scrollBy(0, -80));
      await view.screenshot({ path: screenshotPath(`admin-activity-actors-${width}-${theme}.png`), fullPage: false });
      await view.close();
    }
  });

  it("fits a phone and the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await openAdminPage(phone, "User Activity", "User Activity");
    await phone.locator("tbody tr").first().waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: screenshotPath("admin-activity-390.png"), fullPage: false });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openAdminPage(dark, "User Activity", "User Activity");
    await dark.locator("tbody tr").first().waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-activity-dark-1440.png"), fullPage: false });
  });
});
