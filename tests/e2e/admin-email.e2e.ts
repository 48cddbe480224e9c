// Email Settings (docs/product.md, Admin back office; issue 11): an admin saves the SMTP settings against a real SMTP
// peer on 127.0.0.1, tests the connection (success with a message that arrives, then a refused login), creates,
// edits, tests and deletes a template, and opens the test email's preview. Phone width and the dark theme too.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const SMTP_USER = FAKE_SMTP_USER;
const SMTP_PASS = "smtp-e2e-Pa55word";
/** A real SMTP server (tests/fakes/smtp-fake.ts) that takes a message only after a login as SMTP_USER / SMTP_PASS. */
let smtp: SmtpFake;
let admin: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  smtp = await startSmtpFake({ user: SMTP_USER, pass: SMTP_PASS, requireAuth: true });
  admin = await registerViaApi(h, uniqueAccount("admin"));
});
afterAll(async () => {
  await smtp?.close();
});

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function openEmailSettings(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Email Settings" }).click();
  await page.waitForURL("**/admin/email-settings");
  await page.getByRole("heading", { name: "Email Settings", level: 1 }).waitFor();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const settle = (page: Page) => page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));

describe("admin: Email Settings", () => {
  it("saves the SMTP settings and tests the connection against a real SMTP server", async () => {
    expect(admin.role).toBe("admin");
    const page = await h.newPage();
    await openEmailSettings(page);
    await page.getByRole("tab", { name: "SMTP Configuration" }).waitFor();
    await page.getByRole("tab", { name: "Email Templates" }).waitFor();
    expect(await field(page, "Port").inputValue()).toBe("587");
    await page.getByText("25, 465 for SSL, 587 for TLS").waitFor();

    // The product's rules, before anything is sent.
    await page.getByRole("button", { name: "Save SMTP Settings" }).click();
    for (const message of ["SMTP host is required", "SMTP username is required", "SMTP password is required", "Enter a valid email"]) {
      await page.getByText(message, { exact: true }).waitFor();
    }

    await field(page, "SMTP Host").fill("127.0.0.1");
    await field(page, "Port").fill(String(smtp.port));
    await field(page, "SMTP Username").fill(SMTP_USER);
    const password = field(page, "SMTP Password");
    await password.fill(SMTP_PASS);
    expect(await password.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await password.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await field(page, "From Email").fill("noreply@example.com");
    await field(page, "From Name").fill("Lumora Mail");
    await field(page, "Test Recipient").fill("ops@example.com");

    await page.getByRole("button", { name: "Test Connection" }).click();
    await page.getByRole("button", { name: "Connection Successful" }).waitFor();
    expect(await toastText(page, "SMTP connection successful")).toContain("ops@example.com");
    expect(smtp.messages.map((m) => m.subject)).toContain("SMTP test from Lumora");

    await page.getByRole("button", { name: "Save SMTP Settings" }).click();
    await toastText(page, "SMTP Settings updated");
    expect(await field(page, "Test Recipient").inputValue()).toBe("ops@example.com");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-email-smtp-1440.png"), fullPage: true });

    // After a reload: the password is stored, never shown; a blank one keeps it.
    await page.reload();
    await page.getByRole("heading", { name: "Email Settings", level: 1 }).waitFor();
    expect(await field(page, "SMTP Password").inputValue()).toBe("");
    expect(await field(page, "SMTP Password").getAttribute("placeholder")).toContain("A password is stored");
    expect(await page.content()).not.toContain(SMTP_PASS);
    await page.getByRole("button", { name: "Test Connection" }).click();
    await page.getByRole("button", { name: "Connection Successful" }).waitFor();

    // A wrong password: the button says so, with the server's reason.
    await field(page, "SMTP Password").fill("wrong-password");
    await page.getByRole("button", { name: "Test Connection" }).click();
    await page.getByRole("button", { name: "Connection Failed" }).waitFor();
    expect(await page.getByTestId("smtp-test-result").innerText()).toMatch(/authentication failed/i);
    expect(await toastText(page, "SMTP connection failed")).toMatch(/authentication failed/i);
  });

  it("creates, edits, tests and deletes a template, and opens the test email's preview", async () => {
    const page = await h.newPage();
    await openEmailSettings(page);
    await page.getByRole("tab", { name: "Email Templates" }).click();
    await page.getByRole("button", { name: "New Template" }).click();
    await page.getByText("Unique identifier used in code (lowercase, hyphens)").waitFor();

    await page.getByRole("button", { name: "Create Template" }).click();
    for (const message of ["Template name is required", "Template slug is required", "Email subject is required"]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await field(page, "Template Name").fill("Course Reminder");
    expect(await field(page, "Template Slug").inputValue()).toBe("course-reminder");
    await field(page, "Template Slug").fill("Course Reminder");
    await field(page, "Email Subject").fill("Keep going, {{name}}");
    await field(page, "Plain Text Content").fill("Hi {{name}}, your course on {{platformName}} is waiting.");
    await page.getByRole("button", { name: "Create Template" }).click();
    await page.getByText("Slug must be lowercase letters, numbers, and hyphens only").waitFor();
    await field(page, "Template Slug").fill("course-reminder");
    await page.getByRole("button", { name: "Create Template" }).click();
    // The HTML part is empty: its tab opens with the message.
    await page.getByText("HTML content is required", { exact: true }).waitFor();
    await field(page, "HTML Content").fill("<p>Hi {{name}}, your course on {{platformName}} is waiting.</p>");
    await page.getByRole("button", { name: "Create Template" }).click();
    await toastText(page, "Template created");
    const list = page.getByRole("navigation", { name: "Email templates" });
    await list.getByRole("button", { name: /Course Reminder/ }).waitFor();

    await field(page, "Email Subject").fill("Keep going, {{name}}!");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toastText(page, "Template updated");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-email-templates-1440.png"), fullPage: true });

    await page.getByRole("button", { name: "Test Email", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Send Test Email" });
    await dialog.getByText("real address").waitFor();
    await dialog.getByLabel("Recipient Email").fill("nope");
    await dialog.getByLabel("Test Data (JSON)").fill("{ name: ");
    await dialog.getByRole("button", { name: "Send Test Email" }).click();
    await dialog.getByText("Enter a valid email address").waitFor();
    await dialog.getByText("Invalid JSON in test data. Please check the format.").waitFor();
    await dialog.getByLabel("Recipient Email").fill("learner@example.com");
    await dialog.getByLabel("Test Data (JSON)").fill('{ "name": "<b>Ada</b>" }');
    await dialog.getByRole("button", { name: "Send Test Email" }).click();
    expect(await toastText(page, "Test email sent")).toContain("learner@example.com");
    const preview = dialog.getByRole("link", { name: /Open preview|test inbox/ });
    const href = await preview.getAttribute("href");
    expect(href).toMatch(/^\/admin\/email-preview\/\d+$/);
    await settle(page);
    await page.screenshot({ path: screenshotPath("admin-email-test-dialog-1440.png") });
    const [opened] = await Promise.all([page.context().waitForEvent("page"), preview.click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe(href);
    await opened.close();
    await dialog.getByRole("button", { name: "Close" }).first().click();

    // Delete, with the product's confirm text.
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Delete template?" });
    await confirm.getByText('Are you sure you want to delete the "Course Reminder" template? This action cannot be undone.').waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toastText(page, "Template deleted");
    await list.getByRole("button", { name: /Course Reminder/ }).waitFor({ state: "detached" });
  });

  it("fits a phone and the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await openEmailSettings(phone);
    await field(phone, "SMTP Host").waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("admin-email-smtp-390.png"), fullPage: true });
    await phone.getByRole("tab", { name: "Templates" }).click();
    await phone.getByRole("button", { name: "New Template" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("admin-email-templates-390.png"), fullPage: true });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openEmailSettings(dark);
    await field(dark, "SMTP Host").waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-email-smtp-dark-1440.png"), fullPage: true });
    await dark.getByRole("tab", { name: "Email Templates" }).click();
    await dark.getByRole("button", { name: "New Template" }).waitFor();
    await dark.screenshot({ path: screenshotPath("admin-email-templates-dark-1440.png"), fullPage: true });
  });
});
