import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "../../src/server/db/schema/index.js";
import { queueEmail, queueRendered } from "../../src/server/modules/email/queue.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;
let welcomeId: number;
let hostileId: number;

async function statusOf(id: number): Promise<string> {
  const [row] = await h.database.db.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.id, id));
  return row?.status ?? "missing";
}

async function untilStatus(id: number, status: string) {
  for (let i = 0; i < 100; i++) {
    if ((await statusOf(id)) === status) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`email ${id} never became ${status}`);
}

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("admin"));
  member = await registerViaApi(h, uniqueAccount("member"));
  // No SMTP server configured: the worker keeps these in the test inbox.
  ({ id: welcomeId } = await queueEmail({
    db: h.database.db,
    to: "ada@example.com",
    template: "welcome",
    data: { name: "Ada <b>Lovelace</b>", username: "ada", loginUrl: `${h.baseUrl}/login` },
  }));
  ({ id: hostileId } = await queueRendered({
    db: h.database.db,
    to: "mallory@example.com",
    templateSlug: null,
    subject: "Hostile HTML",
    text: "Plain part of the hostile email",
    html: `<p id="x">Hello</p><script>parent.document.title = "pwned"; document.getElementById("x").textContent = "ran";</script><img src="data:image/png;base64,AAAA" onerror="parent.document.title='pwned'">`,
  }));
  await untilStatus(welcomeId, "test");
  await untilStatus(hostileId, "test");
});

async function openPreview(page: Page, id: number) {
  await signIn(page, admin);
  await page.goto(`/admin/email-preview/${id}`);
  await page.getByRole("heading", { level: 1 }).waitFor();
}

describe("admin: email preview and outbox", () => {
  it("refuses non-admins (Access Denied) and sends a visitor to sign in", async () => {
    const visitor = await h.newPage();
    await visitor.goto(`/admin/email-preview/${welcomeId}`);
    await visitor.waitForURL(`**/login?next=%2Fadmin%2Femail-preview%2F${welcomeId}`);

    const page = await h.newPage();
    await signIn(page, member);
    await page.goto(`/admin/email-preview/${welcomeId}`);
    await page.getByRole("heading", { name: "Access Denied" }).waitFor();
    expect(await page.getByText("ada@example.com").count()).toBe(0);
  });

  it("shows a test-inbox email: subject, recipient, status, the HTML sandboxed beside the text", async () => {
    const page = await h.newPage();
    await openPreview(page, welcomeId);
    await page.getByRole("heading", { name: "Welcome to Lumora, Ada <b>Lovelace</b>!" }).waitFor();
    expect(await page.getByTestId("preview-to").innerText()).toBe("ada@example.com");
    await page.getByText("Test inbox", { exact: true }).waitFor();
    await page.getByText("No SMTP server was configured, so this email was kept in the test inbox and never sent.").waitFor();
    const frame = page.locator('iframe[title="HTML part of the email"]');
    expect(await frame.getAttribute("sandbox")).toBe("");
    const inner = page.frameLocator('iframe[title="HTML part of the email"]');
    await inner.getByText("Ada <b>Lovelace</b>", { exact: false }).first().waitFor();
    expect(await page.getByTestId("preview-text").innerText()).toContain(`${h.baseUrl}/login`);
    await page.screenshot({ path: screenshotPath("admin-email-outbox-1440.png"), fullPage: true });
  });

  it("never runs the scripts of an email's HTML", async () => {
    // A context of its own: Chromium reports each blocked script as a console error, which is the proof sought here.
    const context = await h.browser.newContext({ baseURL: h.baseUrl, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await openPreview(page, hostileId);
    await page.getByRole("heading", { name: "Hostile HTML" }).waitFor();
    const inner = page.frameLocator('iframe[title="HTML part of the email"]');
    await inner.locator("#x").waitFor();
    // A fixed wait: the test proves a script never ran, and an absence has no event to wait for. The frame's own
    // script would run as the frame loads; 300 ms after its content shows is long past that.
    await page.waitForTimeout(300);
    expect(await inner.locator("#x").innerText()).toBe("Hello");
    expect(await page.title()).not.toBe("pwned");
    expect(consoleErrors.some((text) => text.includes("Blocked script execution in 'about:srcdoc'"))).toBe(true);
    await context.close();
  });

  it("resends a test-inbox email with a toast, and shows an unknown email plainly", async () => {
    const page = await h.newPage();
    await openPreview(page, welcomeId);
    await page.getByRole("button", { name: "Resend" }).click();
    const toast = page.locator("[data-sonner-toast]", { hasText: "Email queued" }).first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain("ada@example.com");
    await untilStatus(welcomeId, "test");

    await page.goto("/admin/email-preview/999999");
    await page.getByText("Email not found").waitFor();
    await page.goto("/admin/email-preview/abc");
    await page.getByText("Email not found").waitFor();
  });

  it("lists the outbox in the Email Settings Outbox tab", async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/admin/email-settings");
    await page.getByRole("heading", { name: "Email Settings" }).first().waitFor();
    // The tab must be there: without it the click times out and the test fails, it never passes unchecked.
    await page.getByRole("tab", { name: "Outbox" }).click();
    await page.getByRole("heading", { name: "Outbox" }).waitFor();
    const row = page.getByTestId("outbox-row").filter({ hasText: "mallory@example.com" });
    await row.getByText("Test inbox").waitFor();
    await page.getByRole("button", { name: "Failed", exact: true }).click();
    await page.getByText("No emails with status Failed.").waitFor();
    await page.getByRole("button", { name: "All", exact: true }).click();
    await row.getByRole("link", { name: "Preview" }).click();
    await page.waitForURL(`**/admin/email-preview/${hostileId}`);
  });

  it("fits a phone and the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await openPreview(phone, welcomeId);
    await phone.getByTestId("preview-text").waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await phone.screenshot({ path: screenshotPath("admin-email-outbox-390.png"), fullPage: true });

    const dark = await h.newPage();
    // Only in the app's window: the sandboxed email frame has no storage at all.
    await dark.addInitScript(() => {
      if (window === window.top) localStorage.setItem("ui-theme", "dark");
    });
    await openPreview(dark, welcomeId);
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-email-outbox-dark-1440.png"), fullPage: true });
  });
});
