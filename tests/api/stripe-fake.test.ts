// Proves the Stripe fake speaks Stripe's wire format: the real `stripe` SDK runs against it by host and port.
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_STRIPE_PUBLISHABLE_KEY,
  type FakePaymentIntent,
  parseForm,
  paymentIntentEvent,
  type StripeFake,
  signedWebhook,
  startStripeFake,
  TEST_CARDS,
} from "../fakes/stripe-fake.js";

let fake: StripeFake;
let stripe: Stripe;
const client = (key: string) => new Stripe(key, { host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0 });

beforeAll(async () => {
  fake = await startStripeFake();
  stripe = client("sk_test_x");
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.down = false;
  fake.delayMs = 0;
  fake.reset();
});

const createIntent = (metadata: Record<string, string> = { pendingCheckoutId: "12" }, idempotencyKey?: string) =>
  stripe.paymentIntents.create(
    { amount: 1999, currency: "usd", metadata, automatic_payment_methods: { enabled: true }, description: "Course" },
    idempotencyKey ? { idempotencyKey } : undefined,
  );

/** What the browser stand-in of Stripe.js does: confirm with the publishable key and the client secret. */
function confirmInBrowser(intent: { id: string; client_secret: string | null }, card: string) {
  const body = new URLSearchParams({
    client_secret: intent.client_secret ?? "",
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": card,
  });
  return fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${FAKE_STRIPE_PUBLISHABLE_KEY}`, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
}

describe("Stripe fake", () => {
  it("creates and retrieves a PaymentIntent, and records the form-encoded request", async () => {
    const intent = await createIntent();
    expect(intent).toMatchObject({
      object: "payment_intent",
      amount: 1999,
      amount_received: 0,
      currency: "usd",
      status: "requires_payment_method",
      metadata: { pendingCheckoutId: "12" },
      automatic_payment_methods: { enabled: true },
      livemode: false,
      last_payment_error: null,
      latest_charge: null,
      description: "Course",
    });
    expect(intent.id).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_[A-Za-z0-9]+$`));
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ id: intent.id, status: "requires_payment_method" });

    const [created] = fake.requests;
    expect(created).toMatchObject({ method: "POST", path: "/v1/payment_intents", apiKey: "sk_test_x" });
    expect(created?.body).toEqual({
      amount: "1999",
      currency: "usd",
      metadata: { pendingCheckoutId: "12" },
      automatic_payment_methods: { enabled: "true" },
      description: "Course",
    });
    expect(created?.idempotencyKey).toMatch(/^stripe-node-retry-/);
    expect(created?.headers["stripe-version"]).toBe(Stripe.API_VERSION);
  });

  it("refuses a create without amount or with a bad amount", async () => {
    const missing = stripe.paymentIntents.create({ currency: "usd" } as Stripe.PaymentIntentCreateParams);
    await expect(missing).rejects.toMatchObject({ type: "StripeInvalidRequestError", code: "parameter_missing", param: "amount" });
    await expect(stripe.paymentIntents.create({ amount: 0, currency: "usd" })).rejects.toMatchObject({ statusCode: 400, param: "amount" });
    expect(fake.createdCount()).toBe(0);
  });

  it("replays the same idempotency key and refuses it with other parameters", async () => {
    const first = await createIntent({ pendingCheckoutId: "7" }, "checkout-7");
    const again = await createIntent({ pendingCheckoutId: "7" }, "checkout-7");
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(fake.createdCount()).toBe(1);

    const other = createIntent({ pendingCheckoutId: "8" }, "checkout-7");
    await expect(other).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await expect(other).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("same parameters") });
    // Keys are per API key: another secret key may reuse it.
    const otherAccount = await client("sk_test_other").paymentIntents.create(
      { amount: 5, currency: "eur" },
      { idempotencyKey: "checkout-7" },
    );
    expect(otherAccount.id).not.toBe(first.id);
    expect(fake.createdCount()).toBe(2);
  });

  it("confirms with test cards from the browser: decline → 402 card_error, 4242 → succeeded", async () => {
    const intent = await createIntent();
    const declined = await confirmInBrowser(intent, TEST_CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.headers.get("access-control-allow-origin")).toBe("*");
    const { error } = (await declined.json()) as { error: { type: string; code: string; payment_intent: FakePaymentIntent } };
    expect(error).toMatchObject({ type: "card_error", code: "card_declined", message: "Your card was declined." });
    expect(error.payment_intent.status).toBe("requires_payment_method");
    const afterDecline = await stripe.paymentIntents.retrieve(intent.id);
    expect(afterDecline.last_payment_error).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });

    const poor = (await (await confirmInBrowser(intent, TEST_CARDS.insufficientFunds)).json()) as { error: { decline_code: string } };
    expect(poor.error.decline_code).toBe("insufficient_funds");
    expect((await confirmInBrowser(intent, "4000000000000000")).status).toBe(402);

    const paid = await confirmInBrowser(intent, TEST_CARDS.visa);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ id: intent.id, status: "succeeded", amount_received: 1999 });

    const wrongSecret = await confirmInBrowser({ id: intent.id, client_secret: `${intent.id}_secret_nope` }, TEST_CARDS.visa);
    expect(wrongSecret.status).toBe(400);
  });

  it("answers the CORS preflight and lets a publishable key retrieve only with the client secret", async () => {
    const preflight = await fetch(`${fake.url}/v1/payment_intents/pi_x/confirm`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("idempotency-key");

    const intent = await createIntent();
    const browser = client(FAKE_STRIPE_PUBLISHABLE_KEY);
    const seen = await browser.paymentIntents.retrieve(intent.id, { client_secret: intent.client_secret! });
    expect(seen).toMatchObject({ id: intent.id, status: "requires_payment_method" });
    await expect(browser.paymentIntents.retrieve(intent.id)).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(browser.paymentIntents.create({ amount: 5, currency: "usd" })).rejects.toMatchObject({ statusCode: 401 });
  });

  it("moves intents with the test controls (HTTP and methods) and cancels", async () => {
    const intent = await createIntent();
    const control = await fetch(`${fake.url}/__control/payment_intents/${intent.id}/succeed`, {
      method: "POST",
      body: JSON.stringify({ amountReceived: 500, currency: "EUR" }),
    });
    expect(control.status).toBe(200);
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: "succeeded", amount_received: 500, currency: "eur" });
    await expect(stripe.paymentIntents.cancel(intent.id)).rejects.toMatchObject({
      statusCode: 400,
      code: "payment_intent_unexpected_state",
    });

    const second = await createIntent();
    expect(fake.setStatus(second.id, "processing").status).toBe("processing");
    expect(fake.fail(second.id).last_payment_error?.code).toBe("card_declined");
    expect((await stripe.paymentIntents.cancel(second.id)).status).toBe("canceled");
    expect(fake.intents.get(second.id)?.status).toBe("canceled");
  });

  it("answers like Stripe for a bad key, an unknown intent, an unknown URL and an outage", async () => {
    const badKey = client("sk_live_nope1234").paymentIntents.retrieve("pi_x");
    await expect(badKey).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(badKey).rejects.toMatchObject({ statusCode: 401, message: "Invalid API Key provided: sk_live_****1234" });

    const missing = stripe.paymentIntents.retrieve("pi_missing");
    await expect(missing).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(missing).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
      message: "No such payment_intent: 'pi_missing'",
    });

    const unknown = await fetch(`${fake.url}/v1/xyz`, { headers: { authorization: "Bearer sk_test_x" } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { type: "invalid_request_error", message: "Unrecognized request URL (GET: /v1/xyz)." } });

    const unknownControl = await fetch(`${fake.url}/__control/payment_intents/pi_missing/succeed`, { method: "POST" });
    expect(unknownControl.status).toBe(404);

    fake.down = true;
    await expect(createIntent()).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(fake.createdCount()).toBe(0);
    expect(fake.requests.at(-1)?.path).toBe("/v1/payment_intents");

    fake.down = false;
    fake.delayMs = 150;
    const started = Date.now();
    await createIntent();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    fake.delayMs = 0;
  });

  it("only accepts the configured secret key when acceptedSecretKey is set", async () => {
    const strict = await startStripeFake({ acceptedSecretKey: "sk_test_right" });
    try {
      const at = (key: string) => new Stripe(key, { host: strict.host, port: strict.port, protocol: "http", maxNetworkRetries: 0 });
      await expect(at("sk_test_wrong").paymentIntents.create({ amount: 5, currency: "usd" })).rejects.toMatchObject({ statusCode: 401 });
      expect((await at("sk_test_right").paymentIntents.create({ amount: 5, currency: "usd" })).amount).toBe(5);
    } finally {
      await strict.close();
    }
  });

  it("signs webhooks the SDK accepts, and the SDK refuses a tampered body", async () => {
    const intent = fake.succeed((await createIntent()).id);
    const event = paymentIntentEvent(intent);
    expect(event).toMatchObject({
      object: "event",
      type: "payment_intent.succeeded",
      livemode: false,
      data: { object: { id: intent.id } },
    });
    expect(event.id).toMatch(/^evt_/);

    const secret = "whsec_test_secret";
    const { body, signature } = signedWebhook(event, secret);
    expect(stripe.webhooks.constructEvent(body, signature, secret)).toMatchObject({ id: event.id, type: "payment_intent.succeeded" });
    const tampered = body.replace('"amount_received": 1999', '"amount_received": 1');
    expect(tampered).not.toBe(body);
    expect(() => stripe.webhooks.constructEvent(tampered, signature, secret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it("parses bracket notation into nested objects", () => {
    expect(parseForm("a[b][c]=1&x=y%20z&list[]=p&list[]=q&__proto__[polluted]=1")).toEqual({
      a: { b: { c: "1" } },
      x: "y z",
      list: { "0": "p", "1": "q" },
    });
  });
});
