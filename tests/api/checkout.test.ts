// The Early Access checkout (issue 12), driven through the real app and the real `stripe` SDK talking to the local
// Stripe stand-in: start (validation first, a pending registration, one intent per checkout), resume, finish through
// POST /api/register (verified with Stripe, only by the browser that started it, once), and Stripe being down. The
// upgrade of a signed-in user is in checkout-upgrade.test.ts, the webhook and the reconciler in checkout-webhook.test.ts,
// a price change mid-way in checkout-price-change.test.ts, the holds on names in checkout-holds.test.ts.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox } from "../../src/server/db/schema/index.js";
import { AMOUNT_MISMATCH, NEEDS_SUPPORT } from "../../src/server/modules/payments/complete-checkout.js";
import { NOT_THIS_BROWSER } from "../../src/server/modules/payments/finish-service.js";
import { STRIPE_UNREACHABLE } from "../../src/server/modules/payments/stripe-errors.js";
import { MISSING_REGISTRATION, PAYMENTS_UNAVAILABLE } from "../../src/shared/contracts/payments.js";
import { REGISTRATION_CLOSED } from "../../src/shared/contracts/platform-settings.js";
import { FAKE_STRIPE_SECRET_KEY, type StripeFake } from "../fakes/stripe-fake.js";
import { buildTestApp, CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, checkoutForm, checkoutKit, checkoutStage, START } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_api_tests";

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser, started, finish, intentOf } = checkoutKit(() => ({ app: t.app, fake }));
const form = checkoutForm;

const lastCreate = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").at(-1);
const login = (username: string, password: string) => browser().post("/api/login", { username, password });

async function usersNamed(username: string) {
  const { rows } = await t.database.db.execute(sql`select plan_type from users where lower(username) = lower(${username})`);
  return rows as { plan_type: string }[];
}
async function checkoutOf(intentId: string) {
  const { rows } = await t.database.db.execute(sql`select * from pending_checkouts where payment_intent_id = ${intentId}`);
  return rows[0] as Record<string, unknown> | undefined;
}
async function mails(to: string, template: string) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to.toLowerCase()), eq(emailOutbox.templateSlug, template)));
}
async function unfinished() {
  const res = await admin.get("/api/admin/unfinished-payments");
  expect(res.statusCode).toBe(200);
  return res.json() as { username: string; paymentIntentId: string | null; amount: string; currency: string; problem: string }[];
}
async function setPrice(earlyAccessPrice: string, currency: string) {
  const current = await admin.get("/api/admin/payment-settings");
  const body = { earlyAccessPrice, currency };
  const res =
    current.json().id === null
      ? await admin.post("/api/admin/payment-settings", body)
      : await admin.patch("/api/admin/payment-settings", body);
  expect(res.statusCode, res.body).toBeLessThan(300);
}
async function setAllowRegistration(allowRegistration: boolean) {
  expect((await admin.patch("/api/admin/platform-settings", { allowRegistration })).statusCode).toBe(200);
}

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

describe("starting a checkout (POST /api/create-payment-intent with the form)", () => {
  it("answers only { clientSecret, paymentIntentId }, creates a 297 USD intent naming the checkout, and binds the browser", async () => {
    const before = fake.createdCount();
    const client = browser();
    const body = form();
    const res = await client.post(START, body);
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(Object.keys(answer).sort()).toEqual(["clientSecret", "paymentIntentId"]);
    expect(fake.createdCount()).toBe(before + 1);
    const intent = intentOf(answer.paymentIntentId);
    expect(answer.clientSecret).toBe(intent.client_secret);
    expect(intent).toMatchObject({ amount: 29700, currency: "usd", status: "requires_payment_method" });
    expect(intent.metadata).toMatchObject({ kind: "register" });
    const row = await checkoutOf(intent.id);
    expect(intent.metadata.pendingCheckoutId).toBe(String(row?.id));
    expect(row).toMatchObject({ kind: "register", status: "pending", username: body.username, amount_minor: 29700, currency: "usd" });
    expect(lastCreate()?.idempotencyKey).toBeTruthy();
    expect(lastCreate()?.apiKey).toBe(FAKE_STRIPE_SECRET_KEY);

    const cookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((line) => line.startsWith("checkout="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(client.cookie("checkout")).toBeTruthy();
    // Nothing usable yet: no account, no session.
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect((await login(body.username, body.password)).statusCode).toBe(401);
  });

  it("stores the password only as an argon2 hash", async () => {
    const { body, intentId } = await started();
    const row = await checkoutOf(intentId);
    expect(String(row?.password_hash)).toMatch(/^\$argon2id?\$/);
    expect(JSON.stringify(row)).not.toContain(body.password);
  });

  it("charges a zero-decimal currency in whole units (5000 JPY → 5000)", async () => {
    try {
      await setPrice("5000", "jpy");
      const { intentId } = await started();
      expect(intentOf(intentId)).toMatchObject({ amount: 5000, currency: "jpy" });
      expect(await checkoutOf(intentId)).toMatchObject({ amount_minor: 5000, currency: "jpy" });
    } finally {
      await setPrice("297", "USD");
    }
  });

  it.each([
    [{ password: "short1!", confirmPassword: "short1!" }, "password", "Password must be at least 8 characters"],
    [{ password: "NoDigits!here", confirmPassword: "NoDigits!here" }, "password", "Password must contain at least one number"],
    [{ confirmPassword: "Other!pass9" }, "confirmPassword", "Passwords do not match"],
    [{ acceptTerms: false }, "acceptTerms", "You must accept the terms and conditions"],
    [{ username: "ab" }, "username", "Username must be at least 3 characters"],
    [{ email: "not-an-email" }, "email", "Please enter a valid email address"],
  ])("refuses %o with the registration message and creates no intent", async (override, field, message) => {
    const before = fake.createdCount();
    const client = browser();
    const res = await client.post(START, form(override));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
    expect(fake.createdCount()).toBe(before);
    expect(client.cookie("checkout")).toBeUndefined();
  });

  it("answers 409 when the username or the email is taken, and creates no intent", async () => {
    const taken = newAccount();
    expect((await browser().post("/api/register", taken)).statusCode).toBe(201);
    const before = fake.createdCount();
    const sameName = await browser().post(START, form({ username: taken.username.toUpperCase() }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe("Username already exists");
    const sameEmail = await browser().post(START, form({ email: taken.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe("An account with this email already exists");
    expect(fake.createdCount()).toBe(before);
  });

  it("answers 403 while registration is closed, and creates no intent", async () => {
    const before = fake.createdCount();
    try {
      await setAllowRegistration(false);
      const res = await browser().post(START, form());
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(REGISTRATION_CLOSED);
      expect(fake.createdCount()).toBe(before);
    } finally {
      await setAllowRegistration(true);
    }
    expect((await browser().post(START, form())).statusCode).toBe(200);
  });

  it("answers 503 with the product's text when no Stripe keys are configured", async () => {
    const bare = await buildTestApp();
    try {
      await new CookieClient(bare.app).post("/api/register", newAccount());
      const res = await new CookieClient(bare.app).post(START, form());
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: PAYMENTS_UNAVAILABLE });
      expect(res.headers["set-cookie"]).toBeUndefined();
      const { rows } = await bare.database.db.execute(sql`select id from pending_checkouts`);
      expect(rows).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });

  it("answers 502 with a clear message while Stripe is down, leaves nothing that blocks a retry, then works", async () => {
    const client = browser();
    const body = form();
    const before = fake.createdCount();
    fake.down = true;
    const down = await client.post(START, body);
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toBe(STRIPE_UNREACHABLE);
    expect(fake.createdCount()).toBe(before);
    fake.down = false;
    const retry = await client.post(START, body);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(fake.createdCount()).toBe(before + 1);
    fake.succeed(retry.json().paymentIntentId);
    expect((await finish(client, retry.json().paymentIntentId)).statusCode).toBe(201);
  });
});

describe("double submit and resume", () => {
  it("gives the same browser the same intent when it submits twice", async () => {
    const first = await started();
    const before = fake.createdCount();
    const again = await first.client.post(START, first.body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ clientSecret: first.clientSecret, paymentIntentId: first.intentId });
    expect(fake.createdCount()).toBe(before);
  });

  it("makes one intent for two parallel first submits of the same form", async () => {
    const body = form();
    const before = fake.createdCount();
    const [a, b] = await Promise.all([browser().post(START, body), browser().post(START, body)]);
    expect(a?.statusCode, a?.body).toBe(200);
    expect(b?.statusCode, b?.body).toBe(200);
    expect(a?.json().paymentIntentId).toBe(b?.json().paymentIntentId);
    expect(fake.createdCount()).toBe(before + 1);
    const { rows } = await t.database.db.execute(sql`select id from pending_checkouts where lower(email) = lower(${body.email})`);
    expect(rows).toHaveLength(1);
  });

  it("makes one intent for two parallel first submits while Stripe is slow", async () => {
    const body = form();
    const before = fake.createdCount();
    fake.delayMs = 150;
    const answers = await Promise.all([browser().post(START, body), browser().post(START, body), browser().post(START, body)]);
    fake.delayMs = 0;
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(new Set(answers.map((res) => res.json().paymentIntentId)).size).toBe(1);
    expect(fake.createdCount()).toBe(before + 1);
  });

  it("resumes the checkout of this browser with no body, and refuses another browser", async () => {
    const first = await started();
    const before = fake.createdCount();
    const resumed = await first.client.post(START);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toEqual({ clientSecret: first.clientSecret, paymentIntentId: first.intentId });
    expect((await first.client.post(START, {})).json().paymentIntentId).toBe(first.intentId);
    expect(fake.createdCount()).toBe(before);

    const stranger = await browser().post(START);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(MISSING_REGISTRATION);
    // A forged cookie naming the same checkout is not its binding.
    const forged = browser();
    const id = String(first.client.cookie("checkout")).split(".")[0];
    const res = await forged.request({ method: "POST", url: START, headers: { cookie: `checkout=${id}.${"A".repeat(43)}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MISSING_REGISTRATION);
  });
});

describe("finishing (POST /api/register { planType: earlyAccess, paymentIntentId })", () => {
  it("answers 402 before the payment and creates no account", async () => {
    const { client, body, intentId } = await started();
    const res = await finish(client, intentId);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBeTruthy();
    expect(res.headers["set-cookie"] ?? "").not.toMatch(/sid=[^;]/);
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect((await login(body.username, body.password)).statusCode).toBe(401);
  });

  it("after the payment: 201 on Early Access, signed in, receipt and welcome queued; a replay makes no second account", async () => {
    const { client, body, intentId } = await started();
    const cookie = client.cookie("checkout");
    fake.succeed(intentId);
    const res = await finish(client, intentId);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ username: body.username, email: body.email.toLowerCase(), role: "user", planType: "earlyAccess" });
    const me = await client.get("/api/user");
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: body.username, planType: "earlyAccess" });
    expect(client.cookie("checkout")).toBeUndefined();
    const receipts = await mails(body.email, "early-access-receipt");
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.textBody).toContain("297");
    expect(await mails(body.email, "welcome")).toHaveLength(1);
    expect((await login(body.username, body.password)).statusCode).toBe(200);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "completed", password_hash: null });

    // The same browser again: its checkout cookie was cleared (403); with the old cookie sent back: 409, signed in once.
    const again = await finish(client, intentId);
    expect(again.statusCode).toBe(403);
    const replay = browser();
    const replayed = await replay.request({
      method: "POST",
      url: "/api/register",
      payload: { planType: "earlyAccess", paymentIntentId: intentId },
      headers: { cookie: `checkout=${cookie}` },
    });
    expect(replayed.statusCode).toBe(409);
    expect(replay.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await mails(body.email, "early-access-receipt")).toHaveLength(1);
  });

  it("signs in only one of two parallel finishes from the same browser", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    const cookie = `checkout=${client.cookie("checkout")}`;
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/api/register",
        payload: { planType: "earlyAccess", paymentIntentId: intentId },
        headers: { cookie },
        remoteAddress: client.ip,
      });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await mails(body.email, "early-access-receipt")).toHaveLength(1);
  });

  it("refuses another browser (no cookie, or another checkout's cookie) with 403 and no session", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const noCookie = browser();
    const res = await finish(noCookie, intentId);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(NOT_THIS_BROWSER);
    expect(noCookie.sessionCookie).toBeUndefined();

    const other = await started();
    const crossed = await finish(other.client, intentId);
    expect(crossed.statusCode).toBe(403);
    expect(other.client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect(await usersNamed(other.body.username)).toHaveLength(0);
  });

  it("ignores hasPaid: Early Access without an intent is 400 and grants nothing", async () => {
    const account = newAccount({ planType: "earlyAccess", hasPaid: true });
    const res = await browser().post("/api/register", account);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.paymentIntentId).toBeTruthy();
    expect(await usersNamed(account.username)).toHaveLength(0);

    const free = browser();
    const created = await free.post("/api/register", newAccount({ hasPaid: true, planType: "free" }));
    expect(created.statusCode).toBe(201);
    expect(created.json().planType).toBe("free");
    const unknown = await browser().post("/api/register", {
      planType: "earlyAccess",
      paymentIntentId: "pi_doesNotExist123",
      hasPaid: true,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("answers 402 with the card's message for a failed payment, and creates no account", async () => {
    const { client, body, intentId } = await started();
    fake.fail(intentId);
    const res = await finish(client, intentId);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toContain("Your card was declined.");
    expect(await usersNamed(body.username)).toHaveLength(0);
    // The same checkout can still be paid with another card.
    fake.succeed(intentId);
    expect((await finish(client, intentId)).statusCode).toBe(201);
  });

  it("answers 502 while Stripe cannot be reached to check the payment, creates nothing, and a retry finishes", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    fake.down = true;
    const down = await finish(client, intentId);
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toBe(STRIPE_UNREACHABLE);
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    fake.down = false;
    expect((await finish(client, intentId)).statusCode).toBe(201);
  });

  it("answers 402 for a payment still processing", async () => {
    const { client, body, intentId } = await started();
    fake.setStatus(intentId, "processing");
    const res = await finish(client, intentId);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toMatch(/processing/i);
    expect(await usersNamed(body.username)).toHaveLength(0);
  });

  it.each([
    ["an underpaid intent", { amountReceived: 100 }],
    ["an intent paid in another currency", { currency: "eur" }],
  ])("answers 402 for %s, creates no account, and shows it to admins", async (_label, change) => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId, change);
    const res = await finish(client, intentId);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(AMOUNT_MISMATCH);
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    const listed = (await unfinished()).find((p) => p.paymentIntentId === intentId);
    expect(listed).toMatchObject({ username: body.username });
    expect(listed?.problem).toMatch(/recorded/);
    // Asking again changes nothing: it is with an admin now.
    const again = await finish(client, intentId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(NEEDS_SUPPORT);
    expect(await usersNamed(body.username)).toHaveLength(0);
  });
});
