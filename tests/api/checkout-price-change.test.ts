// A price change while checkouts are open (issue 28, finding 5; decision 029): saving the Early Access price voids
// every open checkout at another price and cancels its intent at the Stripe stand-in through the real SDK; the page is
// told to start again; a payment at the old price that arrives after the change never grants Early Access (it goes to
// the admins), while one Stripe had already taken when the cancel arrived is honoured. A new intent is never handed
// out at a price that changed while it was made.
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PAID_AFTER_PRICE_CHANGE, PAYMENT_BEING_CHECKED } from "../../src/server/modules/payments/complete-checkout.js";
import { PAID_AFTER_VOID } from "../../src/server/modules/payments/price-change.js";
import { CheckoutReconciler } from "../../src/server/modules/payments/reconciler.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { adminPaymentsApi, PRICE_CHANGED, paymentsApi } from "../../src/shared/contracts/payments.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { FAKE_STRIPE_SECRET_KEY, paymentIntentEvent, type StripeFake, signedWebhook } from "../fakes/stripe-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, type CheckoutForm, checkoutForm, checkoutKit, checkoutStage } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_price_change";

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser, started, intentOf } = checkoutKit(() => ({ app: t.app, fake }));

/** Step 2's form, or (no body) the checkout this browser or account has. */
const start = (client: CookieClient, body?: CheckoutForm) => client.call(paymentsApi.createPaymentIntent, { body });
/** The end of a registration checkout: POST /api/register with the paid intent. */
const finish = (client: CookieClient, paymentIntentId: string) =>
  client.call(authApi.register, { body: { planType: "earlyAccess", paymentIntentId } });
/** The checkout page's status read (it renews a registration's hold). */
const status = (client: CookieClient, paymentIntentId: string) => client.call(paymentsApi.checkoutStatus, { query: { paymentIntentId } });

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

async function setPrice(earlyAccessPrice: string, currency = "USD") {
  const current = await admin.ok(adminPaymentsApi.get, {});
  const body = { earlyAccessPrice, currency };
  const res =
    current.id === null ? await admin.call(adminPaymentsApi.create, { body }) : await admin.call(adminPaymentsApi.update, { body });
  expect(res.status, res.response.body).toBeLessThan(300);
}
// Every test starts at the product's price and leaves it there.
afterEach(async () => {
  fake.down = false;
  await setPrice("297");
});

async function usersNamed(username: string) {
  const { rows } = await t.database.db.execute(sql`select plan_type from users where lower(username) = lower(${username})`);
  return rows as { plan_type: string }[];
}
async function checkoutOf(intentId: string) {
  const { rows } = await t.database.db.execute(
    sql`select status, problem, password_hash from pending_checkouts where payment_intent_id = ${intentId}`,
  );
  return rows[0] as { status: string; problem: string | null; password_hash: string | null } | undefined;
}
const cancelsOf = (intentId: string) =>
  fake.requests.filter((r) => r.method === "POST" && r.path === `/v1/payment_intents/${intentId}/cancel`);
function deliver(intentId: string) {
  const { body, signature } = signedWebhook(paymentIntentEvent(intentOf(intentId)), WEBHOOK_SECRET);
  // Stripe's signed bytes, sent unchanged at the contract's address.
  return t.app.inject({
    ...requestFor(paymentsApi.webhook, {}),
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload: body,
  });
}
async function unfinished() {
  const res = await admin.call(adminPaymentsApi.unfinished, {});
  expect(res.status).toBe(200);
  return res.data;
}
function reconciler() {
  const errors: unknown[] = [];
  const { db, sessions, payments } = t.app.ctx;
  const instance = new CheckoutReconciler({
    db,
    sessions,
    gateway: payments,
    loginUrl: "http://localhost/login",
    logError: (_message, error) => errors.push(error),
  });
  return { instance, errors };
}
async function freeUser() {
  const client = browser();
  const account = { ...newAccount(), planType: "free" as const };
  expect((await client.call(authApi.register, { body: account })).status).toBe(201);
  return { client, account };
}
const complete = (client: CookieClient, paymentIntentId: string) => client.call(paymentsApi.completeUpgrade, { body: { paymentIntentId } });

describe("a price change voids the open checkouts at the old price", () => {
  it("cancels the intent at Stripe, tells the page to start again, and the restart pays the new price", async () => {
    await setPrice("1");
    const { client, body, intentId } = await started();
    expect(intentOf(intentId)).toMatchObject({ amount: 100, currency: "usd" });
    expect((await status(client, intentId)).status).toBe(200);

    await setPrice("297");
    // Cancelled at the stand-in by the save itself, with the secret key, before the admin's answer.
    expect(intentOf(intentId).status).toBe("canceled");
    expect(cancelsOf(intentId).map((r) => r.apiKey)).toEqual([FAKE_STRIPE_SECRET_KEY]);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "voided", password_hash: null });

    // Every read of the page says so: its status, the resume, and the finish.
    for (const res of [await status(client, intentId), await start(client), await finish(client, intentId)]) {
      expect(res.status, res.response.body).toBe(409);
      expect(res.error.message).toBe(PRICE_CHANGED);
    }
    expect(await usersNamed(body.username)).toHaveLength(0);

    // The hold ended with it: starting again (step 2 once more) is a new checkout at the new price.
    const again = await start(client, body);
    expect(again.status, again.response.body).toBe(200);
    const newIntent = again.data.paymentIntentId;
    expect(intentOf(newIntent)).toMatchObject({ amount: 29700, currency: "usd" });
    fake.succeed(newIntent);
    const done = await finish(client, newIntent);
    expect(done.status, done.response.body).toBe(201);
    expect(done.data.planType).toBe("earlyAccess");
  });

  it("voids a currency change too, and leaves alone checkouts already at the saved price", async () => {
    const atPrice = await started();
    await setPrice("297", "EUR");
    expect(intentOf(atPrice.intentId).status).toBe("canceled");
    const inEuros = await started();
    expect(intentOf(inEuros.intentId)).toMatchObject({ amount: 29700, currency: "eur" });
    // Saving the same price again (a key changed, say) cancels nothing.
    await setPrice("297", "EUR");
    expect(intentOf(inEuros.intentId).status).toBe("requires_payment_method");
    expect(cancelsOf(inEuros.intentId)).toHaveLength(0);
    expect((await status(inEuros.client, inEuros.intentId)).data.state).toBe("open");
  });

  it("voids a signed-in user's upgrade: the old intent is refused, and the next checkout is at the new price", async () => {
    await setPrice("1");
    const { client } = await freeUser();
    const oldIntent = (await start(client)).data.paymentIntentId;
    expect(intentOf(oldIntent).amount).toBe(100);
    await setPrice("297");
    expect(intentOf(oldIntent).status).toBe("canceled");
    const read = await status(client, oldIntent);
    expect(read.status).toBe(409);
    expect(read.error.message).toBe(PRICE_CHANGED);
    const refused = await complete(client, oldIntent);
    expect(refused.status).toBe(409);
    expect(refused.error.message).toBe(PRICE_CHANGED);
    const next = await start(client);
    expect(next.status, next.response.body).toBe(200);
    expect(intentOf(next.data.paymentIntentId)).toMatchObject({ amount: 29700 });
  });
});

describe("a payment at the old price after the change", () => {
  it("never upgrades the account it was for, by the page, the webhook or the reconciler", async () => {
    await setPrice("1");
    const { client, account } = await freeUser();
    const oldIntent = (await start(client)).data.paymentIntentId;
    await setPrice("297");
    // Stripe takes the $1 payment anyway (a cancel lost on the way, a replayed card form).
    fake.succeed(oldIntent);
    const byPage = await complete(client, oldIntent);
    expect(byPage.status).toBe(409);
    expect(byPage.error.message).toBe(PAID_AFTER_PRICE_CHANGE);
    expect((await deliver(oldIntent)).statusCode).toBe(200);
    await reconciler().instance.runOnce();
    expect((await client.ok(userApi.me, {})).planType).toBe("free");
    expect(await usersNamed(account.username)).toEqual([{ plan_type: "free" }]);
    // Never lost: the admins see it, to refund.
    const listed = (await unfinished()).find((p) => p.paymentIntentId === oldIntent);
    expect(listed).toMatchObject({ amount: "1.00", problem: PAID_AFTER_VOID });
  });

  it("never creates the account when Stripe was unreachable at the change: it waits for the save's answer, then goes to the admins", async () => {
    await setPrice("1");
    const { client, body, intentId } = await started();
    fake.down = true;
    await setPrice("297");
    fake.down = false;
    // The cancel never reached Stripe, so the $1 intent could still be paid, and is.
    expect(intentOf(intentId).status).toBe("requires_payment_method");
    fake.succeed(intentId);
    // Just after the change: the save might still have been asking Stripe, so nothing is decided yet.
    const soon = await finish(client, intentId);
    expect(soon.status).toBe(409);
    expect(soon.error.message).toBe(PAYMENT_BEING_CHECKED);
    expect((await deliver(intentId)).statusCode).toBe(200);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "voided" });
    // Two minutes later the reconciler asks Stripe: paid after the change, so it goes to the admins.
    await t.database.db.execute(
      sql`update pending_checkouts set voided_at = now() - interval '3 minutes', updated_at = now() - interval '3 minutes' where payment_intent_id = ${intentId}`,
    );
    const { instance, errors } = reconciler();
    await instance.runOnce();
    expect(errors).toEqual([]);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "attention", problem: PAID_AFTER_VOID, password_hash: null });
    const late = await finish(client, intentId);
    expect(late.status).toBe(409);
    expect(late.error.message).toBe(PAID_AFTER_PRICE_CHANGE);
    expect(client.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(0);
  });

  it("a payment Stripe had already taken when the cancel arrived is honoured; an unpaid one beside it is voided", async () => {
    await setPrice("1");
    const paid = await started();
    const unpaid = await started();
    // Paid before the change; the visitor's finish (or the webhook) has not arrived yet.
    fake.succeed(paid.intentId);
    await setPrice("297");
    expect(intentOf(unpaid.intentId).status).toBe("canceled");
    expect(await checkoutOf(unpaid.intentId)).toMatchObject({ status: "voided" });
    // Stripe refused to cancel the paid one: it beat the change and is finished at the price it was opened at.
    expect(intentOf(paid.intentId).status).toBe("succeeded");
    expect(await checkoutOf(paid.intentId)).toMatchObject({ status: "pending" });
    const done = await finish(paid.client, paid.intentId);
    expect(done.status, done.response.body).toBe(201);
    expect(done.data.planType).toBe("earlyAccess");
    expect((await finish(unpaid.client, unpaid.intentId)).error.message).toBe(PRICE_CHANGED);
  });
});

describe("an intent made while the price changes", () => {
  it("is never handed out at the old price: the checkout gets one at the new price", async () => {
    const client = browser();
    const body = checkoutForm();
    const creates = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").length;
    const before = creates();
    fake.delayMs = 1000;
    const starting = start(client, body);
    // Stripe is making the $297 intent: the admin saves $397 meanwhile.
    await expect.poll(creates, { timeout: 10_000, interval: 10 }).toBe(before + 1);
    await setPrice("397");
    const res = await starting;
    fake.delayMs = 0;
    expect(res.status, res.response.body).toBe(200);
    expect(intentOf(res.data.paymentIntentId)).toMatchObject({ amount: 39700 });
    const made = fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").slice(before);
    expect(made.map((r) => r.body.amount)).toEqual(["29700", "39700"]);
    // The $297 one, made for the same checkout, is cancelled and was never recorded.
    const handedOut = intentOf(res.data.paymentIntentId);
    const first = [...fake.intents.values()].find(
      (i) => i.metadata.pendingCheckoutId === handedOut.metadata.pendingCheckoutId && i.id !== handedOut.id,
    );
    expect(first?.amount).toBe(29700);
    await expect.poll(() => first?.status).toBe("canceled");
  });
});
