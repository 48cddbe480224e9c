// What an attacker tried against the Early Access checkout (issue 12 review), each now refused: holding a
// visitor's email or username once the checkout's page is gone (issue 28: holds and addresses are in
// checkout-holds.test.ts), guessing a pending checkout's password to take it over,
// redirecting an intent a victim pays to other details, a secret key served as the publishable one, and
// signed but unreadable webhook events. Also the visitor's own way out: choosing Free after starting to pay.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EMAIL_HELD } from "../../src/server/modules/auth/auth-service.js";
import { CheckoutReconciler } from "../../src/server/modules/payments/reconciler.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { adminPaymentsApi, paymentsApi } from "../../src/shared/contracts/payments.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { paymentIntentEvent, type StripeFake, signedWebhook } from "../fakes/stripe-fake.js";
import { callApp, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, checkoutForm, checkoutKit, checkoutStage } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_abuse";

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser } = checkoutKit(() => ({ app: t.app, fake }));
const form = checkoutForm;

const startCheckout = (client: Browser, body: ReturnType<typeof form>) => client.call(paymentsApi.createPaymentIntent, { body });
async function start(client: Browser, body: ReturnType<typeof form>) {
  const res = await startCheckout(client, body);
  expect(res.status, res.response.body).toBe(200);
  return res.data.paymentIntentId;
}
const finish = (client: CookieClient, paymentIntentId: string) =>
  client.call(authApi.register, { body: { planType: "earlyAccess", paymentIntentId } });
/** Stripe's signed bytes, sent unchanged at the contract's address. */
const deliver = (payload: string, signature: string) =>
  t.app.inject({
    ...requestFor(paymentsApi.webhook, {}),
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload,
  });

const age = (intentId: string, column: "created_at" | "updated_at" | "last_seen_at", minutes: number) =>
  t.database.db.execute(
    sql`update pending_checkouts set ${sql.raw(column)} = now() - make_interval(mins => ${minutes}) where payment_intent_id = ${intentId}`,
  );

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

describe("the hold on a username and email", () => {
  it("lasts while the checkout's page reads it, never by the reconciler's checks, and ends after 5 quiet minutes", async () => {
    const body = form();
    const visitor = browser();
    const intentId = await start(visitor, body);
    const reconciler = new CheckoutReconciler({
      db: t.database.db,
      sessions: t.app.ctx.sessions,
      gateway: t.app.ctx.payments,
      loginUrl: "http://localhost/login",
      logError: (message, error) => {
        throw new Error(`${message}: ${String(error)}`);
      },
    });
    const squat = () => browser().call(authApi.register, { body: { ...newAccount({ username: body.username }), planType: "free" } });
    // Started 45 minutes ago, its page read 4 minutes ago: still held (a slow payer keeps their name).
    await age(intentId, "created_at", 45);
    await age(intentId, "last_seen_at", 4);
    expect((await squat()).status).toBe(409);
    // The page reads it again: another 5 minutes (the answer compared whole, unparsed).
    const read = await visitor.call(paymentsApi.checkoutStatus, { query: { paymentIntentId: intentId } });
    expect(read.response.json()).toEqual({ state: "open", holdIdleSeconds: 300 });
    const { rows } = await t.database.db.execute(
      sql`select last_seen_at > now() - interval '1 minute' as fresh from pending_checkouts where payment_intent_id = ${intentId}`,
    );
    expect(rows).toEqual([{ fresh: true }]);
    // The page closed 6 minutes ago: the reconciler's look at the intent does not keep it, and the name is free.
    await age(intentId, "last_seen_at", 6);
    await age(intentId, "updated_at", 6);
    await reconciler.runOnce();
    expect((await squat()).status).toBe(201);
  });
});

describe("taking over someone's checkout", () => {
  it("allows 5 password guesses per email in 15 minutes, then refuses even the right one", async () => {
    const body = form();
    await start(browser(), body);
    for (let i = 0; i < 5; i++) {
      const guess = await startCheckout(browser(), { ...body, password: `Wr0ng!guess${i}`, confirmPassword: `Wr0ng!guess${i}` });
      expect(guess.status).toBe(409);
      expect(guess.error.errors?.email).toBe(EMAIL_HELD);
    }
    const right = await startCheckout(browser(), body);
    expect(right.status).toBe(429);
    expect(right.error.message).toMatch(/Too many attempts for this email/);
  });

  it("whoever proves the password but changes the details gets a new intent: the victim's payment never becomes their account", async () => {
    const body = form();
    const victim = browser();
    const victimIntent = await start(victim, body);
    const attacker = browser();
    // Same details and password (another tab of the same person): the same intent.
    expect(await start(attacker, body)).toBe(victimIntent);
    // Changed details: a new binding and a new intent; the old one is cancelled.
    const attackerIntent = await start(attacker, { ...body, username: `${body.username}x`, email: `x${body.email}` });
    expect(attackerIntent).not.toBe(victimIntent);
    await expect.poll(() => fake.intents.get(victimIntent)?.status).toBe("canceled");
    // Had the victim paid the old intent anyway, it is kept for an admin and signs nobody in.
    fake.succeed(victimIntent);
    const stolen = await finish(attacker, victimIntent);
    expect(stolen.status).toBe(409);
    expect(attacker.sessionCookie).toBeUndefined();
    const late = await finish(victim, victimIntent);
    expect(late.status).toBe(409);
    expect(late.error.message).toMatch(/contact support/);
    expect(late.headers["set-cookie"] ?? "").not.toMatch(/sid=[^;]/);
    const listed = (await admin.call(adminPaymentsApi.unfinished, {})).response.body;
    expect(listed).toContain(victimIntent);
  });
});

describe("choosing Free after starting a checkout", () => {
  it("the same browser registers on the Free plan with the held name, and its checkout ends", async () => {
    const body = form();
    const visitor = browser();
    const intentId = await start(visitor, body);
    const { username, name, email, password } = body;
    const free = await visitor.call(authApi.register, { body: { username, name, email, password, planType: "free" } });
    expect(free.status, free.response.body).toBe(201);
    expect(free.data).toMatchObject({ username, planType: "free" });
    expect(visitor.cookie("checkout")).toBeUndefined();
    await expect.poll(() => fake.intents.get(intentId)?.status).toBe("canceled");
    const { rows } = await t.database.db.execute(sql`select status from pending_checkouts where payment_intent_id = ${intentId}`);
    expect(rows).toEqual([{ status: "abandoned" }]);
  });
});

describe("keys of the wrong kind", () => {
  it("never serves a secret key as the publishable key", async () => {
    const wrong = await buildTestApp({ env: { STRIPE_SECRET_KEY: "sk_test_real", VITE_STRIPE_PUBLIC_KEY: "sk_test_pasted_by_mistake" } });
    try {
      const res = await callApp(wrong.app, publicContentApi.paymentSettings, {});
      expect(res.data).toMatchObject({ paymentsAvailable: false, publishableKey: null });
      expect(res.response.body).not.toContain("sk_test");
    } finally {
      await wrong.close();
    }
  });
});

describe("signed webhook events that cannot be read", () => {
  it.each([
    ["no data object", { id: "evt_1abc", object: "event", type: "payment_intent.succeeded", data: {} }],
    ["a NUL in the id", { id: "evt_\u0000", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_1" } } }],
    ["a type that is not text", { id: "evt_2abc", object: "event", type: 5, data: { object: { id: "pi_1" } } }],
    ["an intent id that is not one", { id: "evt_3abc", object: "event", type: "payment_intent.succeeded", data: { object: { id: 7 } } }],
  ])("answers 400 to %s, never 500", async (_name, event) => {
    const { body, signature } = signedWebhook(event, WEBHOOK_SECRET);
    const res = await deliver(body, signature);
    expect(res.statusCode).toBe(400);
  });

  it("still finishes a readable one", async () => {
    const body = form();
    const intentId = await start(browser(), body);
    const intent = fake.succeed(intentId);
    const { body: raw, signature } = signedWebhook(paymentIntentEvent(intent), WEBHOOK_SECRET);
    const res = await deliver(raw, signature);
    expect(res.statusCode).toBe(200);
    const { rows } = await t.database.db.execute(sql`select plan_type from users where username = ${body.username}`);
    expect(rows).toEqual([{ plan_type: "earlyAccess" }]);
  });
});
