// Payment Settings (docs/product.md, Admin back office): an admin opens the page from the menu, sees the defaults (297 USD), gets the
// form's message for a blank price, saves 149.50 EUR, enters Stripe keys (only a hint ever shows), removes one,
// requests the missing keys (the server's banner), and marks a paid checkout that could not finish as resolved.
// A failed read shows the defaults and says so; phone width and the dark theme; a member sees Access Denied.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { pendingCheckouts } from "../../src/server/db/schema/index.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

const SECRET_KEY = "sk_test_51WalkerSecretNeverShown0000Wk01";
const PUBLISHABLE_KEY = "pk_test_51WalkerPublishableNotShown00Pk02";
const PROBLEM = "The username was taken while the payment went through.";

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("boss"));
  if (admin.role !== "admin") throw new Error("the first account should be admin");
  member = await registerViaApi(h, uniqueAccount("member"));
});

async function seedAttention(username: string, paymentIntentId: string) {
  await h.database.db.insert(pendingCheckouts).values({
    kind: "register",
    status: "attention",
    username,
    email: `${username}@example.com`,
    bindingNonce: `nonce-${username}`,
    paymentIntentId,
    amountMinor: 29700,
    currency: "usd",
    problem: PROBLEM,
  });
}

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function openPaymentSettings(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Payment Settings" }).click();
  await page.getByRole("heading", { name: "Payment Settings", level: 1 }).waitFor();
  await page.getByRole("button", { name: "Save Settings" }).waitFor();
}

const keyRow = (page: Page, label: RegExp) =>
  page.getByRole("list", { name: "Key status" }).getByRole("listitem").filter({ hasText: label });

async function adminRead(page: Page) {
  const res = await page.request.get("/api/admin/payment-settings");
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    id: number | null;
    earlyAccessPrice: string;
    currency: string;
    keys: Record<string, { source: string | null }>;
  };
}

describe("admin: Payment Settings", () => {
  it("saves the price, enters and removes keys, requests the missing ones and resolves a payment", async () => {
    await seedAttention("latepayer", "pi_3QaBcDeFgHiJkLmN1234");
    const page = await h.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: h.baseUrl });
    await openPaymentSettings(page);

    // The defaults (nothing saved yet).
    const price = page.getByLabel("Early Access price", { exact: true });
    const currency = page.getByLabel("Currency", { exact: true });
    expect(await price.inputValue()).toBe("297");
    expect(await currency.inputValue()).toBe("USD");
    await page.getByText("Three-letter code, such as USD").waitFor();
    await page.getByText("Visitors pay $297 once at checkout.").waitFor();
    expect(await page.getByText("Not set", { exact: true }).count()).toBeGreaterThanOrEqual(2);
    expect((await adminRead(page)).id).toBeNull();

    // The form's message.
    await price.fill("");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Price is required").waitFor();

    // 149.50 eur: the currency shows uppercased, the first save creates the settings.
    await price.fill("149.50");
    await currency.fill("eur");
    expect(await currency.inputValue()).toBe("EUR");
    await page.getByText("Visitors pay €149.50 once at checkout.").waitFor();
    await page.getByRole("button", { name: "Save Settings" }).click();
    expect(await toastText(page, "Payment settings updated")).toContain("Your payment configuration has been saved successfully.");
    expect(await adminRead(page)).toMatchObject({ earlyAccessPrice: "149.50", currency: "EUR" });

    // Every key is missing: the three rows say so, and the webhook endpoint can be copied.
    for (const label of [/^Secret key/, /^Publishable key/, /^Webhook signing secret/]) {
      await keyRow(page, label).getByText("Missing", { exact: true }).waitFor();
    }
    await page.getByText(`${h.baseUrl}/api/stripe/webhook`).waitFor();
    await page.getByText("payment_intent.succeeded").waitFor();
    await page.getByRole("button", { name: "Copy the webhook endpoint" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${h.baseUrl}/api/stripe/webhook`);

    // A key of the wrong kind gets the shared schema's message; then both browser keys are saved.
    const secretField = page.getByLabel("Secret key", { exact: true });
    await secretField.fill(PUBLISHABLE_KEY);
    await page.getByRole("button", { name: "Save keys" }).click();
    await page.getByText("The secret key starts with sk_").waitFor();
    await secretField.fill(SECRET_KEY);
    await page.getByLabel("Publishable key", { exact: true }).fill(PUBLISHABLE_KEY);
    await page.getByRole("button", { name: "Save keys" }).click();
    await toastText(page, "Payment settings updated");
    await keyRow(page, /^Secret key/)
      .getByText("Saved on this page")
      .waitFor();
    await keyRow(page, /^Secret key/)
      .getByText("sk_test_...Wk01")
      .waitFor();
    await keyRow(page, /^Publishable key/)
      .getByText("pk_test_...Pk02")
      .waitFor();
    await keyRow(page, /^Secret key/)
      .getByText("Configured", { exact: true })
      .waitFor();
    expect(await secretField.inputValue()).toBe("");
    let html = await page.content();
    expect(html).not.toContain(SECRET_KEY);
    expect(html).not.toContain(PUBLISHABLE_KEY);
    expect(html).not.toContain("WalkerSecretNeverShown");
    // The price saved before is untouched by a key save.
    expect(await adminRead(page)).toMatchObject({ earlyAccessPrice: "149.50", currency: "EUR" });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-payment-settings-1440.png"), fullPage: true, animations: "disabled" });

    // Remove the saved publishable key (confirmed first).
    await page.getByRole("button", { name: "Remove saved key (publishable key)" }).click();
    const confirmRemove = page.getByRole("dialog", { name: "Remove the saved publishable key?" });
    await confirmRemove.waitFor();
    await confirmRemove.getByRole("button", { name: "Remove saved key" }).click();
    expect(await toastText(page, "The saved publishable key was removed.")).toContain("Payment settings updated");
    await keyRow(page, /^Publishable key/)
      .getByText("Missing", { exact: true })
      .waitFor();
    await keyRow(page, /^Secret key/)
      .getByText("Configured", { exact: true })
      .waitFor();
    expect(await page.getByRole("button", { name: /Remove saved key/ }).count()).toBe(1);

    // Check again reads the status again (the key the server holds did not change).
    await page.getByRole("button", { name: "Check again" }).click();
    await page.getByRole("button", { name: "Check again" }).waitFor();
    await keyRow(page, /^Secret key/)
      .getByText("sk_test_...Wk01")
      .waitFor();

    // Request the two missing keys from the owner: the server's answer becomes the banner.
    const request = page.getByRole("form", { name: "Request keys from the owner" });
    await request.getByText("VITE_STRIPE_PUBLIC_KEY").waitFor();
    await request.getByText("STRIPE_WEBHOOK_SECRET").waitFor();
    await request.getByLabel("Message (optional)").fill("Needed before launch.");
    await request.getByRole("button", { name: "Request keys" }).click();
    const banner = request.getByRole("alert");
    await banner.waitFor();
    const said = await banner.innerText();
    expect(said).toContain("We emailed 1 administrator where to find VITE_STRIPE_PUBLIC_KEY, STRIPE_WEBHOOK_SECRET");
    expect(said).toContain("check the server logs");
    expect(await request.getByLabel("Message (optional)").inputValue()).toBe("");

    // The paid checkout that could not finish: shown with its details, then marked resolved.
    const attention = page.getByRole("list", { name: "Payments that need attention" });
    const item = attention.getByRole("listitem", { name: "latepayer" });
    await item.getByText(PROBLEM).waitFor();
    await item.getByText("$297 USD").waitFor();
    await item.getByText("pi_3QaB…1234").waitFor();
    await item.getByText("latepayer@example.com").waitFor();
    await page.getByRole("link", { name: "Open the checkout page" }).waitFor();
    expect(await page.getByRole("link", { name: "Open the checkout page" }).getAttribute("href")).toBe("/checkout/early-access");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-payment-settings-keys-1440.png"), fullPage: true, animations: "disabled" });
    await item.getByRole("button", { name: "Mark resolved" }).click();
    const confirmResolve = page.getByRole("dialog", { name: "Mark this payment resolved?" });
    await confirmResolve.getByRole("button", { name: "Mark resolved" }).click();
    await toastText(page, "Payment marked resolved");
    await page.getByText("No payments need attention.").waitFor();

    // After a reload: the saved price and the key status are read back.
    await page.reload();
    await page.getByRole("button", { name: "Save Settings" }).waitFor();
    expect(await page.getByLabel("Early Access price", { exact: true }).inputValue()).toBe("149.50");
    expect(await page.getByLabel("Currency", { exact: true }).inputValue()).toBe("EUR");
    await keyRow(page, /^Secret key/)
      .getByText("Saved on this page")
      .waitFor();
    await page.getByText("No payments need attention.").waitFor();
    html = await page.content();
    expect(html).not.toContain(SECRET_KEY);
  });

  it("shows the defaults and says so when the saved settings cannot be read, then Retry reads them", async () => {
    const page = await h.newPage();
    let fail = true;
    await page.route("**/api/admin/payment-settings", async (route) => {
      if (fail && route.request().method() === "GET") {
        await route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ message: "The settings are busy." }) });
      } else {
        await route.fallback();
      }
    });
    await openPaymentSettings(page);
    await page.getByText("The saved payment settings could not be read (The settings are busy.), so the defaults are shown.").waitFor();
    expect(await page.getByLabel("Early Access price", { exact: true }).inputValue()).toBe("297");
    expect(await page.getByLabel("Currency", { exact: true }).inputValue()).toBe("USD");
    await page.getByText("The key status could not be read.", { exact: false }).waitFor();
    await page.getByText("The status could not be read, so all are asked for:").waitFor();
    await page.screenshot({ path: screenshotPath("admin-payment-settings-read-failed-1440.png"), fullPage: true, animations: "disabled" });

    fail = false;
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByText("The saved payment settings could not be read", { exact: false }).waitFor({ state: "detached" });
    await page.waitForFunction(() => (document.getElementById("payment-price") as HTMLInputElement | null)?.value === "149.50");
    expect(await page.getByLabel("Currency", { exact: true }).inputValue()).toBe("EUR");
    await keyRow(page, /^Secret key/)
      .getByText("Saved on this page")
      .waitFor();
  });

  it("fits a phone and the dark theme", async () => {
    await seedAttention("phonepayer", "pi_3ZyXwVuTsRqPoNm5678");
    const phone = await h.newPage({ width: 390, height: 844 });
    await openPaymentSettings(phone);
    await phone.getByRole("listitem", { name: "phonepayer" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("admin-payment-settings-390.png"), fullPage: true, animations: "disabled" });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openPaymentSettings(dark);
    await dark.getByRole("listitem", { name: "phonepayer" }).waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-payment-settings-dark-1440.png"), fullPage: true, animations: "disabled" });
    await dark.getByRole("listitem", { name: "phonepayer" }).getByRole("button", { name: "Mark resolved" }).click();
    await dark.getByRole("dialog", { name: "Mark this payment resolved?" }).waitFor();
    await dark.screenshot({ path: screenshotPath("admin-payment-settings-dark-dialog.png"), animations: "disabled" });
    await dark.getByRole("button", { name: "Cancel" }).click();

    const darkPhone = await h.newPage({ width: 390, height: 844 });
    await darkPhone.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openPaymentSettings(darkPhone);
    await darkPhone.getByRole("listitem", { name: "phonepayer" }).waitFor();
    expect(await darkPhone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await darkPhone.screenshot({ path: screenshotPath("admin-payment-settings-dark-390.png"), fullPage: true, animations: "disabled" });
  });

  it("shows Access Denied to a member", async () => {
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/admin/payment-settings");
    await page.getByRole("heading", { name: "Access Denied" }).waitFor();
    expect(await page.getByRole("heading", { name: "Payment Settings" }).count()).toBe(0);
  });
});
