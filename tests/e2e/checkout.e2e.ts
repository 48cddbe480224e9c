import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_STRIPE_PUBLISHABLE_KEY, FAKE_STRIPE_SECRET_KEY, type StripeFake, startStripeFake, TEST_CARDS } from "../fakes/stripe-fake.js";
import { acceptTerms, type Harness, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";
import { routeStripe } from "./support/stripe-js-stand-in.js";

type Account = ReturnType<typeof uniqueAccount>;

async function fillStepOne(page: Page, account: Account) {
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Full Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm Password").fill(account.password);
}

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
}

/** Cancel, as the page's button sends it: the address's live holds stay under the cap of 5 (decision 029). */
const releaseHold = (page: Page) =>
  page.evaluate(() => fetch("/api/early-access/checkout/cancel", { method: "POST" }).then((r) => r.status));

const payButton = (page: Page) => page.getByRole("button", { name: "Pay $297" });

/** Starts a checkout as step 2 does (the form to the server, the display data in this tab), without the form. */
async function startCheckoutInPage(page: Page, account: Account) {
  await page.goto("/terms-of-service");
  const started = await page.evaluate(async (form) => {
    const response = await fetch("/api/create-payment-intent", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...form, confirmPassword: form.password, acceptTerms: true }),
    });
    const body = (await response.json()) as { paymentIntentId: string };
    sessionStorage.setItem(
      "pendingRegistration",
      JSON.stringify({
        username: form.username,
        name: form.name,
        email: form.email,
        paymentIntentId: body.paymentIntentId,
        hasPaid: false,
        stripeCustomerId: null,
      }),
    );
    return { status: response.status, paymentIntentId: body.paymentIntentId };
  }, account);
  expect(started.status).toBe(200);
  return started.paymentIntentId;
}

describe("Early Access checkout (Stripe stand-ins)", () => {
  let fake: StripeFake;
  afterAll(async () => {
    await fake?.close();
  });
  const h: Harness = startHarness({
    env: async () => {
      fake = await startStripeFake({ acceptedSecretKey: FAKE_STRIPE_SECRET_KEY });
      return { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY, VITE_STRIPE_PUBLIC_KEY: FAKE_STRIPE_PUBLISHABLE_KEY, STRIPE_API_URL: fake.url };
    },
    // The first account of an empty database is the admin: the walks below use ordinary accounts.
    ready: (harness) => registerViaApi(harness, uniqueAccount("admin")),
  });

  async function stripePage(options?: { width?: number; height?: number }) {
    const page = await h.newPage(options);
    await routeStripe(page, fake.url);
    return page;
  }

  it("registers with Early Access: pays with 4242 and lands signed in on the dashboard with Early Access", async () => {
    const page = await stripePage();
    const account = uniqueAccount("paid");
    await page.goto("/auth?tab=register");
    await fillStepOne(page, account);
    await page.getByRole("button", { name: "Next" }).click();
    const plans = page.getByRole("radiogroup", { name: "Plan" });
    await expect.poll(() => plans.innerText()).toContain("$297");
    expect(await page.getByRole("radio", { name: /^Early Access/ }).getAttribute("aria-checked")).toBe("true");
    expect(await plans.innerText()).not.toContain("Not available yet");

    await acceptTerms(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/checkout/early-access");
    // Display data only: no password in the browser, and no account before the payment.
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(stored).toContain(account.username);
    expect(stored).not.toContain(account.password);
    expect(await page.evaluate(() => fetch("/api/session").then((r) => r.json()))).toEqual({ user: null });

    const body = page.locator("body");
    await page.getByLabel("Card number").waitFor();
    for (const text of [
      "$297",
      account.email,
      "Multiple AI models",
      "Course AI builder",
      "Training personalities",
      "Priority support",
      "256-bit SSL",
    ]) {
      expect(await body.innerText()).toContain(text);
    }
    await fillCard(page, TEST_CARDS.visa);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await toastText(page, "Registration Successful!")).toContain("Your Early Access account is ready.");
    await page.getByRole("heading", { name: "Key Features" }).waitFor();
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(account.username);

    // The browser confirmed with the publishable key and the typed card, as Stripe.js does.
    const confirm = fake.requests.find((r) => r.path.endsWith("/confirm") && r.apiKey === FAKE_STRIPE_PUBLISHABLE_KEY);
    expect(confirm?.body).toMatchObject({ payment_method_data: { type: "card", card: { number: TEST_CARDS.visa } } });

    await page.goto("/settings");
    const plan = page.getByRole("region", { name: /Plan:/ });
    await plan.getByText("Early Access", { exact: true }).waitFor();
    expect(await plan.innerText()).toContain("All AI models, training personalities and AI course generation.");
    const me = await page.evaluate(() => fetch("/api/user").then((r) => r.json()));
    expect(me).toMatchObject({ username: account.username, planType: "earlyAccess", role: "user" });
  });

  it("Early Access with a taken username puts the server's message under the field at step 1", async () => {
    const taken = await registerViaApi(h, uniqueAccount("taken"));
    const page = await stripePage();
    await page.goto("/auth?tab=register");
    await fillStepOne(page, { ...uniqueAccount("again"), username: taken.username });
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => page.getByRole("radio", { name: /^Early Access/ }).getAttribute("aria-checked")).toBe("true");
    await acceptTerms(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    expect(await toastText(page, "Registration failed")).toContain("Username already exists");
    expect(await page.locator("#register-username-error").innerText()).toBe("Username already exists");
    expect(new URL(page.url()).pathname).toBe("/auth");
  });

  it("a declined card says Payment Failed and stays on the checkout with the form usable", async () => {
    const page = await stripePage();
    const account = uniqueAccount("declined");
    await startCheckoutInPage(page, account);
    await page.goto("/checkout/early-access");
    await fillCard(page, TEST_CARDS.declined);
    await payButton(page).click();
    expect(await toastText(page, "Payment Failed")).toContain("Your card was declined.");
    expect(new URL(page.url()).pathname).toBe("/checkout/early-access");
    await expect.poll(() => payButton(page).isEnabled()).toBe(true);
    expect(await page.evaluate(() => fetch("/api/session").then((r) => r.json()))).toEqual({ user: null });

    // The same form takes another card.
    await page.getByLabel("Card number").fill(TEST_CARDS.visa);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === "/");
    await toastText(page, "Registration Successful!");
  });

  it("a reload after paying finishes at once, and a processing payment is waited for", async () => {
    const page = await stripePage();
    const account = uniqueAccount("reload");
    const paymentIntentId = await startCheckoutInPage(page, account);
    fake.setStatus(paymentIntentId, "processing");
    await page.goto("/checkout/early-access");
    await page.getByRole("status").getByText("Your payment is processing…").waitFor();
    expect(await page.getByLabel("Card number").count()).toBe(0);
    fake.succeed(paymentIntentId);
    await page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });
    await toastText(page, "Registration Successful!");
    const me = await page.evaluate(() => fetch("/api/user").then((r) => r.json()));
    expect(me).toMatchObject({ username: account.username, planType: "earlyAccess" });
  });

  it("finishes from Stripe's redirect return (payment_intent and redirect_status in the URL)", async () => {
    const page = await stripePage();
    const account = uniqueAccount("redirect");
    const paymentIntentId = await startCheckoutInPage(page, account);
    fake.succeed(paymentIntentId);
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`/checkout/early-access?payment_intent=${paymentIntentId}&payment_intent_client_secret=x&redirect_status=succeeded`);
    await page.waitForURL((url) => url.pathname === "/");
    await toastText(page, "Registration Successful!");
  });

  it("a signed-in free user gets Early Access from /personalities, comes back and creates a personality at once", async () => {
    const account = await registerViaApi(h, uniqueAccount("upgrade"));
    const page = await stripePage();
    await signIn(page, account);
    // Every refusal offers the checkout, coming back to where it was.
    await page.goto("/settings");
    const planLink = page.getByRole("region", { name: /Plan:/ }).getByRole("link", { name: "Get Early Access" });
    expect(await planLink.getAttribute("href")).toBe("/checkout/early-access?from=%2Fsettings");
    await page.goto("/personalities");
    await page.getByText("Get Early Access to unlock it.").waitFor();
    await page.screenshot({ path: screenshotPath("personalities-get-early-access-1440.png") });
    await page.getByRole("link", { name: "Get Early Access" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout/early-access" && url.searchParams.get("from") === "/personalities");
    await page.getByRole("heading", { name: "Get Early Access" }).waitFor();
    await fillCard(page, TEST_CARDS.visa);
    await page.screenshot({ path: screenshotPath("checkout-upgrade-1440.png"), fullPage: true });
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === "/personalities");
    expect(await toastText(page, "Upgrade Successful!")).toContain("Your account now has Early Access.");

    await page.getByRole("button", { name: "New Personality" }).click();
    const dialog = page.getByRole("dialog", { name: "New personality" });
    await dialog.getByLabel("Name", { exact: true }).fill("Checkout Coach");
    await dialog.getByLabel("Instructions", { exact: true }).fill("Answer in one short paragraph.");
    await dialog.getByRole("button", { name: "Create personality" }).click();
    await toastText(page, "Personality created");
    await page.getByRole("region", { name: "Checkout Coach" }).waitFor();

    // Paid accounts are sent away from the checkout.
    await page.goto("/checkout/early-access");
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("sends a visitor without registration data to the Register tab", async () => {
    const page = await stripePage();
    await page.goto("/checkout/early-access");
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("tab") === "register");
    expect(await toastText(page, "Missing Registration Data")).toContain("Please complete the registration form first.");
    expect(await page.getByRole("tab", { name: "Register" }).getAttribute("aria-selected")).toBe("true");
  });

  it("comes back to the same checkout after its tab was closed, and pays it", async () => {
    const page = await stripePage();
    const account = uniqueAccount("resume");
    await startCheckoutInPage(page, account);
    // A closed tab loses its sessionStorage; the browser keeps its checkout cookie.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto("/checkout/early-access");
    await page.getByLabel("Card number").waitFor();
    const body = page.locator("body");
    await expect.poll(() => body.innerText()).toContain(account.email);
    expect(await body.innerText()).toContain(account.username);
    await fillCard(page, TEST_CARDS.visa);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === "/");
    await toastText(page, "Registration Successful!");
  });

  it("a declined card's reason stays under the card field until the card changes", async () => {
    const page = await stripePage();
    await startCheckoutInPage(page, uniqueAccount("reason"));
    await page.goto("/checkout/early-access");
    await fillCard(page, TEST_CARDS.declined);
    await payButton(page).click();
    await toastText(page, "Payment Failed");
    const reason = page.getByRole("alert").filter({ hasText: "Your card was declined." });
    await reason.waitFor();
    // Still there once the toast is gone.
    await page.locator("[data-sonner-toast]", { hasText: "Payment Failed" }).waitFor({ state: "detached", timeout: 10_000 });
    expect(await reason.isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath("checkout-declined-1440.png"), fullPage: true });
    await page.getByLabel("Card number").fill(TEST_CARDS.visa);
    await expect.poll(() => reason.count()).toBe(0);
    expect(await releaseHold(page)).toBe(204);
  });

  it("Back keeps the hold and fills the Register tab in (never the password)", async () => {
    const page = await stripePage();
    const account = uniqueAccount("back");
    await startCheckoutInPage(page, account);
    await page.goto("/checkout/early-access");
    await page.getByLabel("Card number").waitFor();
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("tab") === "register");
    expect(await page.getByLabel("Username").inputValue()).toBe(account.username);
    expect(await page.getByLabel("Email").inputValue()).toBe(account.email);
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("");
    const own = await page.evaluate(() => fetch("/api/early-access/registration").then((r) => r.json()));
    expect(own).toMatchObject({ registration: { username: account.username, open: true } });
    // The same details continue the same checkout.
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByLabel("Confirm Password").fill(account.password);
    await page.getByRole("button", { name: "Next" }).click();
    await acceptTerms(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL("**/checkout/early-access");
    await page.getByLabel("Card number").waitFor();
    expect(await releaseHold(page)).toBe(204);
  });

  it("Cancel frees the username and email at once and fills the Register tab in", async () => {
    const page = await stripePage();
    const account = uniqueAccount("cancel");
    const paymentIntentId = await startCheckoutInPage(page, account);
    await page.goto("/checkout/early-access");
    await page.getByLabel("Card number").waitFor();
    await page.getByRole("button", { name: "Cancel checkout" }).click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("tab") === "register");
    expect(await toastText(page, "Checkout cancelled")).toContain("no longer held");
    expect(await page.getByLabel("Username").inputValue()).toBe(account.username);
    expect(await page.getByLabel("Email").inputValue()).toBe(account.email);
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("");
    expect(fake.intents.get(paymentIntentId)?.status).toBe("canceled");
    // Someone else may take the name and email right away.
    const other = await registerViaApi(h, { ...uniqueAccount("taker"), username: account.username, email: account.email });
    expect(other.username).toBe(account.username);
  });

  it("looks right at 1440 and 390 px, light and dark", async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      for (const theme of ["light", "dark"] as const) {
        const page = await stripePage({ width, height });
        await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
        await startCheckoutInPage(page, uniqueAccount("looks"));
        await page.goto("/checkout/early-access");
        await page.getByLabel("Card number").waitFor();
        await expect.poll(() => payButton(page).isEnabled()).toBe(true);
        await page.screenshot({ path: screenshotPath(`checkout-${width}-${theme}.png`), fullPage: true });
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5)
            .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
        );
        expect(wide, `no sideways scroll at ${width} px`).toEqual([]);
        expect(await releaseHold(page)).toBe(204);
        await page.context().close();
      }
    }
  });
});

describe("Early Access without Stripe keys", () => {
  const h = startHarness();
  beforeAll(async () => {
    await registerViaApi(h, uniqueAccount("admin"));
  });

  it("step 2 preselects Free and says Early Access is not available yet", async () => {
    const page = await h.newPage();
    await page.goto("/auth?tab=register");
    await fillStepOne(page, uniqueAccount("nokeys"));
    await page.getByRole("button", { name: "Next" }).click();
    const plans = page.getByRole("radiogroup", { name: "Plan" });
    await expect.poll(() => page.getByRole("radio", { name: /^Free/ }).getAttribute("aria-checked")).toBe("true");
    const early = page.getByRole("radio", { name: /^Early Access/ });
    expect(await early.isDisabled()).toBe(true);
    expect(await plans.innerText()).toContain("Not available yet");
    expect(await plans.innerText()).toContain("$297");
    await page.screenshot({ path: screenshotPath("register-step-two-no-payments-1440.png") });
  });

  it("the checkout says payments are not set up, and Continue with the Free plan goes back to the form with Free chosen", async () => {
    const page = await h.newPage({ expectedStatuses: [503] });
    const account = uniqueAccount("fallback");
    await page.goto("/terms-of-service");
    await page.evaluate((a) => {
      sessionStorage.setItem(
        "pendingRegistration",
        JSON.stringify({
          username: a.username,
          name: a.name,
          email: a.email,
          paymentIntentId: null,
          hasPaid: false,
          stripeCustomerId: null,
        }),
      );
    }, account);
    await page.goto("/checkout/early-access");
    await page.getByText("Stripe payment processing is not available. Please check your Stripe configuration.").waitFor();
    await page.screenshot({ path: screenshotPath("checkout-unavailable-1440.png") });
    await page.getByRole("link", { name: "Continue with the Free plan instead" }).click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("plan") === "free");
    expect(await page.getByLabel("Username").inputValue()).toBe(account.username);
    expect(await page.getByLabel("Email").inputValue()).toBe(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByLabel("Confirm Password").fill(account.password);
    await page.getByRole("button", { name: "Next" }).click();
    expect(await page.getByRole("radio", { name: /^Free/ }).getAttribute("aria-checked")).toBe("true");
    await acceptTerms(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await toastText(page, "Registration successful");
    const me = await page.evaluate(() => fetch("/api/user").then((r) => r.json()));
    expect(me).toMatchObject({ username: account.username, planType: "free" });
  });

  it("a free user's Get Early Access is disabled while payments are not set up", async () => {
    const account = await registerViaApi(h, uniqueAccount("locked"));
    const page = await h.newPage();
    await signIn(page, account);
    await page.goto("/personalities");
    await page.getByText("Not available yet: card payments are not set up.").waitFor();
    expect(await page.getByRole("button", { name: "Get Early Access" }).isDisabled()).toBe(true);
  });
});
