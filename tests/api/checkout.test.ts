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
import { authApi } from "../../src/shared/contracts/auth.js";
import { adminPaymentsApi, MISSING_REGISTRATION, PAYMENTS_UNAVAILABLE, paymentsApi } from "../../src/shared/contracts/payments.js";
import { platformSettingsApi, REGISTRATION_CLOSED } from "../../src/shared/contracts/platform-settings.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { FAKE_STRIPE_SECRET_KEY, type StripeFake } from "../fakes/stripe-fake.js";
import { type CallOptions, callEndpoint } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, checkoutForm, checkoutKit, checkoutStage } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_api_tests";

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser, started, intentOf } = checkoutKit(() => ({ app: t.app, fake }));
const form = checkoutForm;

/** Step 2's form (POST /api/create-payment-intent); no body: the checkout this browser has. */
const start = (client: CookieClient, body?: unknown, options?: CallOptions) =>
  client.call(paymentsApi.createPaymentIntent, { body }, options);
/** The end of a registration checkout: POST /api/register with the paid intent (the checkout cookie says whose). */
const finish = (client: CookieClient, paymentIntentId: string, options?: CallOptions) =>
  client.call(authApi.register, { body: { planType: "earlyAccess", paymentIntentId } }, options);
const registerFree = (client: CookieClient, account = newAccount()) =>
  client.call(authApi.register, { body: { ...account, planType: "free" as const } });

const lastCreate = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").at(-1);
const login = (username: string, password: string) => browser().call(authApi.login, { body: { username, password } });

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
  const res = await admin.call(adminPaymentsApi.unfinished, {});
  expect(res.status).toBe(200);
  return res.data;
}
async function setPrice(earlyAccessPrice: string, currency: string) {
  const current = await admin.ok(adminPaymentsApi.get, {});
  const body = { earlyAccessPrice, currency };
  const res =
    current.id === null ? await admin.call(adminPaymentsApi.create, { body }) : await admin.call(adminPaymentsApi.update, { body });
  expect(res.status, res.response.body).toBeLessThan(300);
}
async function setAllowRegistration(allowRegistration: boolean) {
  expect((await admin.call(platformSettingsApi.update, { body: { allowRegistration } })).status).toBe(200);
}

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

describe("starting a checkout (POST /api/create-payment-intent with the form)", () => {
  it("answers only { clientSecret, paymentIntentId }, creates a 297 USD intent naming the checkout, and binds the browser", async () => {
    const before = fake.createdCount();
    const client = browser();
    const body = form();
    const res = await start(client, body);
    expect(res.status).toBe(200);
    // The keys unparsed (the contract's parse would drop any other).
    expect(Object.keys(res.response.json()).sort()).toEqual(["clientSecret", "paymentIntentId"]);
    const answer = res.data;
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
    expect((await login(body.username, body.password)).status).toBe(401);
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
    const res = await start(client, form(override));
    expect(res.status).toBe(400);
    expect(res.error.errors?.[field]).toBe(message);
    expect(fake.createdCount()).toBe(before);
    expect(client.cookie("checkout")).toBeUndefined();
  });

  it("answers 409 when the username or the email is taken, and creates no intent", async () => {
    const taken = newAccount();
    expect((await registerFree(browser(), taken)).status).toBe(201);
    const before = fake.createdCount();
    const sameName = await start(browser(), form({ username: taken.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.error.message).toBe("Username already exists");
    const sameEmail = await start(browser(), form({ email: taken.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.error.message).toBe("An account with this email already exists");
    expect(fake.createdCount()).toBe(before);
  });

  it("answers 403 while registration is closed, and creates no intent", async () => {
    const before = fake.createdCount();
    try {
      await setAllowRegistration(false);
      const res = await start(browser(), form());
      expect(res.status).toBe(403);
      expect(res.error.message).toBe(REGISTRATION_CLOSED);
      expect(fake.createdCount()).toBe(before);
    } finally {
      await setAllowRegistration(true);
    }
    expect((await start(browser(), form())).status).toBe(200);
  });

  it("answers 503 with the product's text when no Stripe keys are configured", async () => {
    const bare = await buildTestApp();
    try {
      await registerFree(new CookieClient(bare.app));
      const res = await start(new CookieClient(bare.app), form());
      expect(res.status).toBe(503);
      // The refusal whole, unparsed.
      expect(res.response.json()).toEqual({ message: PAYMENTS_UNAVAILABLE });
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
    const down = await start(client, body);
    expect(down.status).toBe(502);
    expect(down.error.message).toBe(STRIPE_UNREACHABLE);
    expect(fake.createdCount()).toBe(before);
    fake.down = false;
    const retry = await start(client, body);
    expect(retry.status, retry.response.body).toBe(200);
    expect(fake.createdCount()).toBe(before + 1);
    fake.succeed(retry.data.paymentIntentId);
    expect((await finish(client, retry.data.paymentIntentId)).status).toBe(201);
  });
});

describe("double submit and resume", () => {
  it("gives the same browser the same intent when it submits twice", async () => {
    const first = await started();
    const before = fake.createdCount();
    const again = await start(first.client, first.body);
    expect(again.status).toBe(200);
    expect(again.response.json()).toEqual({ clientSecret: first.clientSecret, paymentIntentId: first.intentId });
    expect(fake.createdCount()).toBe(before);
  });

  it("makes one intent for two parallel first submits of the same form", async () => {
    const body = form();
    const before = fake.createdCount();
    const [a, b] = await Promise.all([start(browser(), body), start(browser(), body)]);
    expect(a?.status, a?.response.body).toBe(200);
    expect(b?.status, b?.response.body).toBe(200);
    expect(a?.data.paymentIntentId).toBe(b?.data.paymentIntentId);
    expect(fake.createdCount()).toBe(before + 1);
    const { rows } = await t.database.db.execute(sql`select id from pending_checkouts where lower(email) = lower(${body.email})`);
    expect(rows).toHaveLength(1);
  });

  it("makes one intent for two parallel first submits while Stripe is slow", async () => {
    const body = form();
    const before = fake.createdCount();
    fake.delayMs = 150;
    const answers = await Promise.all([start(browser(), body), start(browser(), body), start(browser(), body)]);
    fake.delayMs = 0;
    for (const res of answers) expect(res.status, res.response.body).toBe(200);
    expect(new Set(answers.map((res) => res.data.paymentIntentId)).size).toBe(1);
    expect(fake.createdCount()).toBe(before + 1);
  });

  it("resumes the checkout of this browser with no body, and refuses another browser", async () => {
    const first = await started();
    const before = fake.createdCount();
    const resumed = await start(first.client);
    expect(resumed.status, resumed.response.body).toBe(200);
    expect(resumed.response.json()).toEqual({ clientSecret: first.clientSecret, paymentIntentId: first.intentId });
    expect((await start(first.client, {})).data.paymentIntentId).toBe(first.intentId);
    expect(fake.createdCount()).toBe(before);

    const stranger = await start(browser());
    expect(stranger.status).toBe(400);
    expect(stranger.error.message).toBe(MISSING_REGISTRATION);
    // A forged cookie naming the same checkout is not its binding.
    const forged = browser();
    const id = String(first.client.cookie("checkout")).split(".")[0];
    const res = await start(forged, undefined, { headers: { cookie: `checkout=${id}.${"A".repeat(43)}` } });
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(MISSING_REGISTRATION);
  });
});

describe("finishing (POST /api/register { planType: earlyAccess, paymentIntentId })", () => {
  it("answers 402 before the payment and creates no account", async () => {
    const { client, body, intentId } = await started();
    const res = await finish(client, intentId);
    expect(res.status).toBe(402);
    expect(res.error.message).toBeTruthy();
    expect(res.headers["set-cookie"] ?? "").not.toMatch(/sid=[^;]/);
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect((await login(body.username, body.password)).status).toBe(401);
  });

  it("after the payment: 201 on Early Access, signed in, receipt and welcome queued; a replay makes no second account", async () => {
    const { client, body, intentId } = await started();
    const cookie = client.cookie("checkout");
    fake.succeed(intentId);
    const res = await finish(client, intentId);
    expect(res.status, res.response.body).toBe(201);
    expect(res.data).toMatchObject({ username: body.username, email: body.email.toLowerCase(), role: "user", planType: "earlyAccess" });
    const me = await client.call(userApi.me, {});
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ username: body.username, planType: "earlyAccess" });
    expect(client.cookie("checkout")).toBeUndefined();
    const receipts = await mails(body.email, "early-access-receipt");
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.textBody).toContain("297");
    expect(await mails(body.email, "welcome")).toHaveLength(1);
    expect((await login(body.username, body.password)).status).toBe(200);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "completed", password_hash: null });

    // The same browser again: its checkout cookie was cleared (403); with the old cookie sent back: 409, signed in once.
    const again = await finish(client, intentId);
    expect(again.status).toBe(403);
    const replay = browser();
    const replayed = await finish(replay, intentId, { headers: { cookie: `checkout=${cookie}` } });
    expect(replayed.status).toBe(409);
    expect(replay.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await mails(body.email, "early-access-receipt")).toHaveLength(1);
  });

  it("signs in only one of two parallel finishes from the same browser", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    const cookie = `checkout=${client.cookie("checkout")}`;
    // Two requests holding the same cookie at once (a jar would let only one of them keep it).
    const send = () =>
      callEndpoint(
        (request) => t.app.inject({ ...request, remoteAddress: client.ip }),
        authApi.register,
        { body: { planType: "earlyAccess", paymentIntentId: intentId } },
        { headers: { cookie } },
      );
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await mails(body.email, "early-access-receipt")).toHaveLength(1);
  });

  it("refuses another browser (no cookie, or another checkout's cookie) with 403 and no session", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const noCookie = browser();
    const res = await finish(noCookie, intentId);
    expect(res.status).toBe(403);
    expect(res.error.message).toBe(NOT_THIS_BROWSER);
    expect(noCookie.sessionCookie).toBeUndefined();

    const other = await started();
    const crossed = await finish(other.client, intentId);
    expect(crossed.status).toBe(403);
    expect(other.client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect(await usersNamed(other.body.username)).toHaveLength(0);
  });

  it("ignores hasPaid: Early Access without an intent is 400 and grants nothing", async () => {
    const account = newAccount({ planType: "earlyAccess", hasPaid: true });
    // Bodies the contract does not allow (hasPaid; Early Access without an intent), sent unchanged.
    const register = (client: CookieClient, rawBody: unknown) =>
      client.call(authApi.register, { body: { ...newAccount(), planType: "free" } }, { rawBody });
    const res = await register(browser(), account);
    expect(res.status).toBe(400);
    expect(res.error.errors?.paymentIntentId).toBeTruthy();
    expect(await usersNamed(account.username)).toHaveLength(0);

    const free = browser();
    const created = await register(free, newAccount({ hasPaid: true, planType: "free" }));
    expect(created.status).toBe(201);
    expect(created.data.planType).toBe("free");
    const unknown = await register(browser(), { planType: "earlyAccess", paymentIntentId: "pi_doesNotExist123", hasPaid: true });
    expect(unknown.status).toBe(404);
  });

  it("answers 402 with the card's message for a failed payment, and creates no account", async () => {
    const { client, body, intentId } = await started();
    fake.fail(intentId);
    const res = await finish(client, intentId);
    expect(res.status).toBe(402);
    expect(res.error.message).toContain("Your card was declined.");
    expect(await usersNamed(body.username)).toHaveLength(0);
    // The same checkout can still be paid with another card.
    fake.succeed(intentId);
    expect((await finish(client, intentId)).status).toBe(201);
  });

  it("answers 502 while Stripe cannot be reached to check the payment, creates nothing, and a retry finishes", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    fake.down = true;
    const down = await finish(client, intentId);
    expect(down.status).toBe(502);
    expect(down.error.message).toBe(STRIPE_UNREACHABLE);
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    fake.down = false;
    expect((await finish(client, intentId)).status).toBe(201);
  });

  it("answers 402 for a payment still processing", async () => {
    const { client, body, intentId } = await started();
    fake.setStatus(intentId, "processing");
    const res = await finish(client, intentId);
    expect(res.status).toBe(402);
    expect(res.error.message).toMatch(/processing/i);
    expect(await usersNamed(body.username)).toHaveLength(0);
  });

  it.each([
    ["an underpaid intent", { amountReceived: 100 }],
    ["an intent paid in another currency", { currency: "eur" }],
  ])("answers 402 for %s, creates no account, and shows it to admins", async (_label, change) => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId, change);
    const res = await finish(client, intentId);
    expect(res.status).toBe(402);
    expect(res.error.message).toBe(AMOUNT_MISMATCH);
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
    const listed = (await unfinished()).find((p) => p.paymentIntentId === intentId);
    expect(listed).toMatchObject({ username: body.username });
    expect(listed?.problem).toMatch(/recorded/);
    // Asking again changes nothing: it is with an admin now.
    const again = await finish(client, intentId);
    expect(again.status).toBe(409);
    expect(again.error.message).toBe(NEEDS_SUPPORT);
    expect(await usersNamed(body.username)).toHaveLength(0);
  });
});
