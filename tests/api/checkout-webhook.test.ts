// The other two ways a paid Early Access checkout finishes (issue 12): Stripe's webhook (signature on the raw body,
// events stored by id, the intent re-read from Stripe) and the reconciler (a paid intent nobody came back for), and
// how both meet the browser's own finish: one account, one receipt, the owning browser signed in once. Also: a paid
// checkout that cannot finish is kept for an admin, and neither the client secret nor the password reaches the logs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox } from "../../src/server/db/schema/index.js";
import { EMAIL_HELD, NAME_HELD } from "../../src/server/modules/auth/auth-service.js";
import { PAYMENT_IN_PROGRESS } from "../../src/server/modules/payments/checkout-service.js";
import { NEEDS_SUPPORT } from "../../src/server/modules/payments/complete-checkout.js";
import { CheckoutReconciler } from "../../src/server/modules/payments/reconciler.js";
import { activityApi } from "../../src/shared/contracts/activity.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { adminPaymentsApi, MISSING_REGISTRATION, paymentIntentResultSchema, paymentsApi } from "../../src/shared/contracts/payments.js";
import { platformSettingsApi } from "../../src/shared/contracts/platform-settings.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { paymentIntentEvent, type StripeFake, signedWebhook } from "../fakes/stripe-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, type CheckoutForm, checkoutForm, checkoutKit, checkoutStage, START, stripeEnv } from "../helpers/checkout-kit.js";
import { spawnServer } from "../helpers/spawn-server.js";

const WEBHOOK_SECRET = "whsec_test_checkout_webhook_tests";

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser, started, intentOf } = checkoutKit(() => ({ app: t.app, fake }));
const form = checkoutForm;

/** The end of a registration checkout: POST /api/register with the paid intent (the checkout cookie says whose). */
const finish = (client: CookieClient, paymentIntentId: string) =>
  client.call(authApi.register, { body: { planType: "earlyAccess", paymentIntentId } });
/** Step 2 of a checkout (a form), or a signed-in user's upgrade or a checkout's resume (no body). */
const startCheckout = (client: CookieClient, body?: CheckoutForm) => client.call(paymentsApi.createPaymentIntent, { body });
const register = (client: CookieClient, overrides: Record<string, unknown> = {}) =>
  client.call(authApi.register, { body: { ...newAccount(overrides), planType: "free" as const } });
const setRegistration = (allowRegistration: boolean) => admin.call(platformSettingsApi.update, { body: { allowRegistration } });

/**
 * Stripe's delivery: the exact bytes, signed with the endpoint's secret. The request is sent as bytes (the signature
 * is over them), so it stays a raw request at the contract's address.
 */
function deliverBytes(payload: string, headers: Record<string, string>) {
  return t.app.inject({ ...requestFor(paymentsApi.webhook, {}), headers, payload });
}
function deliver(event: object, options: { secret?: string; signature?: string | null; contentType?: string } = {}) {
  const { body, signature } = signedWebhook(event, options.secret ?? WEBHOOK_SECRET);
  const headers: Record<string, string> = { "content-type": options.contentType ?? "application/json; charset=utf-8" };
  if (options.signature !== null) headers["stripe-signature"] = options.signature ?? signature;
  return deliverBytes(body, headers);
}
const succeededEvent = (id: string) => paymentIntentEvent(intentOf(id), "payment_intent.succeeded");

/** The checkout of this intent started 31 minutes ago and its page has been closed for 6: its hold is over. */
async function makeStale(intentId: string) {
  await t.database.db.execute(
    sql`update pending_checkouts set created_at = now() - interval '31 minutes', updated_at = now() - interval '31 minutes', last_seen_at = now() - interval '6 minutes' where payment_intent_id = ${intentId}`,
  );
}

async function usersNamed(username: string) {
  const { rows } = await t.database.db.execute(sql`select plan_type from users where lower(username) = lower(${username})`);
  return rows as { plan_type: string }[];
}
async function checkoutOf(intentId: string) {
  const { rows } = await t.database.db.execute(sql`select * from pending_checkouts where payment_intent_id = ${intentId}`);
  return rows[0] as Record<string, unknown> | undefined;
}
async function receipts(to: string) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to.toLowerCase()), eq(emailOutbox.templateSlug, "early-access-receipt")));
}
async function unfinished() {
  const res = await admin.call(adminPaymentsApi.unfinished, {});
  expect(res.status).toBe(200);
  return res.data;
}
const login = (username: string, password: string) => browser().call(authApi.login, { body: { username, password } });

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

describe("POST /api/stripe/webhook: the signature", () => {
  it("answers 400 to a bad, a missing or a stale signature, and to a body changed after signing", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const event = succeededEvent(intentId);
    expect((await deliver(event, { secret: "whsec_someone_else" })).statusCode).toBe(400);
    expect((await deliver(event, { signature: null })).statusCode).toBe(400);
    expect((await deliver(event, { signature: "t=1,v1=deadbeef" })).statusCode).toBe(400);
    const signed = signedWebhook(event, WEBHOOK_SECRET);
    const signedHeaders = { "content-type": "application/json", "stripe-signature": signed.signature };
    const tampered = await deliverBytes(signed.body.replace('"livemode": false', '"livemode": true'), signedHeaders);
    expect(tampered.statusCode).toBe(400);
    // Re-serialised JSON is not the signed bytes either (the route must read the body raw).
    const reserialised = await deliverBytes(JSON.stringify(JSON.parse(signed.body)), signedHeaders);
    expect(reserialised.statusCode).toBe(400);
    expect(await usersNamed(body.username)).toHaveLength(0);
    // The genuine delivery is accepted.
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await usersNamed(body.username)).toEqual([{ plan_type: "earlyAccess" }]);
  });
});

describe("POST /api/stripe/webhook: payment_intent.succeeded", () => {
  it("creates the Early Access account when the visitor closed the tab, and a redelivery does nothing twice", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const event = succeededEvent(intentId);
    const first = await deliver(event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await usersNamed(body.username)).toEqual([{ plan_type: "earlyAccess" }]);
    expect((await login(body.username, body.password)).status).toBe(200);
    expect(await receipts(body.email)).toHaveLength(1);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "completed", password_hash: null });

    const again = await deliver(event);
    expect(again.statusCode).toBe(200);
    // Another event about the same payment (a second delivery path) finishes nothing twice either.
    expect((await deliver(succeededEvent(intentId))).statusCode).toBe(200);
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await receipts(body.email)).toHaveLength(1);
  });

  it("webhook first, then the browser: the browser is signed in, once", async () => {
    const { client, body, intentId } = await started();
    const cookie = client.cookie("checkout");
    fake.succeed(intentId);
    expect((await deliver(succeededEvent(intentId))).statusCode).toBe(200);
    const res = await finish(client, intentId);
    expect(res.status, res.response.body).toBe(201);
    expect(res.data).toMatchObject({ username: body.username, planType: "earlyAccess" });
    expect((await client.ok(userApi.me, {})).username).toBe(body.username);
    // The checkout's cookie signs in once.
    const replay = browser();
    const again = await replay.call(
      authApi.register,
      { body: { planType: "earlyAccess", paymentIntentId: intentId } },
      { headers: { cookie: `checkout=${cookie}` } },
    );
    expect(again.status).toBe(409);
    expect(replay.sessionCookie).toBeUndefined();
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await receipts(body.email)).toHaveLength(1);
  });

  it("browser first, then the webhook: 200 and nothing twice", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    expect((await finish(client, intentId)).status).toBe(201);
    const late = await deliver(succeededEvent(intentId));
    expect(late.statusCode).toBe(200);
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await receipts(body.email)).toHaveLength(1);
    expect((await client.call(userApi.me, {})).status).toBe(200);
  });

  it("browser and webhook at the same moment: one account, one receipt, and the browser signed in", async () => {
    const { client, body, intentId } = await started();
    fake.succeed(intentId);
    fake.delayMs = 50;
    const [browserAnswer, hook] = await Promise.all([finish(client, intentId), deliver(succeededEvent(intentId))]);
    fake.delayMs = 0;
    expect(browserAnswer?.status, browserAnswer?.response.body).toBe(201);
    expect(hook?.statusCode).toBe(200);
    expect(await client.ok(userApi.me, {})).toMatchObject({ username: body.username, planType: "earlyAccess" });
    expect(await usersNamed(body.username)).toHaveLength(1);
    expect(await receipts(body.email)).toHaveLength(1);
  });

  it("takes nobody's word but Stripe's: an event saying succeeded for an unpaid intent creates nothing", async () => {
    const { body, intentId } = await started();
    const event = paymentIntentEvent({ ...intentOf(intentId), status: "succeeded", amount_received: 29700 });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await usersNamed(body.username)).toHaveLength(0);
    expect(await checkoutOf(intentId)).toMatchObject({ status: "pending" });
  });

  it("answers 200 to other event types and does nothing", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    for (const type of ["payment_intent.created", "payment_intent.payment_failed", "charge.refunded"]) {
      const res = await deliver(paymentIntentEvent(intentOf(intentId), type));
      expect(res.statusCode).toBe(200);
    }
    expect(await usersNamed(body.username)).toHaveLength(0);
  });

  it("ignores a succeeded payment that is not an Early Access checkout (the Stripe account sells other things too)", async () => {
    const before = (await unfinished()).length;
    const stripe = await t.app.ctx.payments.stripeIfConfigured();
    const other = await stripe!.paymentIntents.create({ amount: 1500, currency: "usd", description: "Something else" });
    fake.succeed(other.id);
    expect((await deliver(succeededEvent(other.id))).statusCode).toBe(200);
    expect(await unfinished()).toHaveLength(before);
  });

  it("answers 5xx while Stripe cannot be reached (so Stripe sends it again), and the redelivery finishes", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const event = succeededEvent(intentId);
    fake.down = true;
    const down = await deliver(event);
    expect(down.statusCode).toBeGreaterThanOrEqual(500);
    expect(await usersNamed(body.username)).toHaveLength(0);
    fake.down = false;
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await usersNamed(body.username)).toHaveLength(1);
  });

  it("upgrades a free user who paid and closed the tab", async () => {
    const client = browser();
    const account = { ...newAccount(), planType: "free" as const };
    expect((await client.call(authApi.register, { body: account })).status).toBe(201);
    const intentId = (await startCheckout(client)).data.paymentIntentId;
    fake.succeed(intentId);
    expect((await deliver(succeededEvent(intentId))).statusCode).toBe(200);
    expect((await client.ok(userApi.me, {})).planType).toBe("earlyAccess");
    expect((await client.ok(paymentsApi.completeUpgrade, { body: { paymentIntentId: intentId } })).planType).toBe("earlyAccess");
    expect(await receipts(account.email)).toHaveLength(1);
  });
});

describe("a paid checkout that can no longer finish", () => {
  it("username taken meanwhile: webhook 200, no account, shown to admins, and the browser is told to contact support", async () => {
    const { client, body, intentId } = await started();
    // While the checkout is fresh, its username and email are held against other sign-ups.
    const held = await register(browser(), { username: body.username, password: "Squ4tter!pw" });
    expect(held.status).toBe(409);
    expect(held.error.errors?.username).toBe(NAME_HELD);
    const heldEmail = await register(browser(), { email: body.email, password: "Squ4tter!pw" });
    expect(heldEmail.error.errors?.email).toBe(EMAIL_HELD);
    // Once its page has been closed for 5 minutes the hold ends: someone takes the username before the slow payer pays.
    await makeStale(intentId);
    expect((await register(browser(), { username: body.username, password: "Squ4tter!pw" })).status).toBe(201);
    fake.succeed(intentId);
    expect((await deliver(succeededEvent(intentId))).statusCode).toBe(200);
    expect(await usersNamed(body.username)).toEqual([{ plan_type: "free" }]);
    expect((await login(body.username, body.password)).status).toBe(401);
    const listed = (await unfinished()).find((p) => p.paymentIntentId === intentId);
    expect(listed).toMatchObject({ kind: "register", username: body.username });
    expect(listed?.problem).toMatch(/username/i);

    const res = await finish(client, intentId);
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(NEEDS_SUPPORT);
    expect(client.sessionCookie).toBeUndefined();

    // Once an admin settled it, it leaves the list.
    expect((await admin.call(adminPaymentsApi.resolveUnfinished, { params: { id: Number(listed?.id) } })).status).toBe(204);
    expect((await unfinished()).some((p) => p.paymentIntentId === intentId)).toBe(false);
  });

  it("another person's checkout for the same email is held while alive, never replaced once paid, and replaced when stale", async () => {
    const first = await started();
    const other = form({ email: first.body.email.toUpperCase(), password: "An0ther!pass", confirmPassword: "An0ther!pass" });
    // Fresh: the email is held (nobody can cancel a visitor's checkout by knowing their email).
    const refused = await startCheckout(browser(), other);
    expect(refused.status).toBe(409);
    expect(refused.error.errors?.email).toBe(EMAIL_HELD);
    // Stale but paid: still not replaced, and the payment finishes normally.
    await makeStale(first.intentId);
    fake.succeed(first.intentId);
    const paid = await startCheckout(browser(), other);
    expect(paid.status).toBe(409);
    expect(paid.error.errors?.email).toBe(PAYMENT_IN_PROGRESS);
    expect((await deliver(succeededEvent(first.intentId))).statusCode).toBe(200);
    expect(await usersNamed(first.body.username)).toEqual([{ plan_type: "earlyAccess" }]);

    // Stale and unpaid: a newer checkout replaces it, and the old intent is cancelled.
    const slow = await started();
    await makeStale(slow.intentId);
    const replacing = await started(form({ email: slow.body.email, password: "An0ther!pass", confirmPassword: "An0ther!pass" }));
    expect(replacing.intentId).not.toBe(slow.intentId);
    await expect.poll(() => intentOf(slow.intentId).status).toBe("canceled");
    fake.succeed(replacing.intentId);
    expect((await finish(replacing.client, replacing.intentId)).status).toBe(201);
  });

  it("registration closed after the payment started is still honoured", async () => {
    const { client, body, intentId } = await started();
    expect((await setRegistration(false)).status).toBe(200);
    try {
      fake.succeed(intentId);
      const res = await finish(client, intentId);
      expect(res.status, res.response.body).toBe(201);
      expect(res.data.planType).toBe("earlyAccess");
    } finally {
      expect((await setRegistration(true)).status).toBe(200);
    }
    expect(await usersNamed(body.username)).toHaveLength(1);
  });
});

describe("the reconciler", () => {
  const reconciler = () => {
    const errors: unknown[] = [];
    const { db, sessions, payments } = t.app.ctx;
    const instance = new CheckoutReconciler({
      db,
      sessions,
      gateway: payments,
      loginUrl: "http://localhost/login",
      logError: (message, error) => errors.push([message, error]),
    });
    return { instance, errors };
  };
  const age = (intentId: string) =>
    t.database.db.execute(
      sql`update pending_checkouts set updated_at = now() - interval '5 minutes' where payment_intent_id = ${intentId}`,
    );

  it("finishes a paid checkout nobody came back for (no browser, no webhook); the browser can still sign in once", async () => {
    const paid = await started();
    const unpaid = await started();
    fake.succeed(paid.intentId);
    await age(paid.intentId);
    await age(unpaid.intentId);
    const { instance, errors } = reconciler();
    await instance.runOnce();
    expect(errors).toEqual([]);
    expect(await usersNamed(paid.body.username)).toEqual([{ plan_type: "earlyAccess" }]);
    expect((await login(paid.body.username, paid.body.password)).status).toBe(200);
    expect(await receipts(paid.body.email)).toHaveLength(1);
    // Its activity rows are the server's own (issue 29): "System", no IP and no user agent.
    const activity = await admin.call(activityApi.list, { query: { search: paid.body.username } });
    expect(activity.status).toBe(200);
    const rows = activity.data.items;
    expect(rows.map((row) => row.action).sort()).toEqual(["early_access_purchase", "login", "register"]);
    for (const row of rows.filter((r) => r.action !== "login")) {
      expect(row).toMatchObject({ ipAddress: null, userAgent: null, actor: { system: true, id: null, username: null } });
    }
    // The unpaid one is left waiting (its visitor may still pay).
    expect(await usersNamed(unpaid.body.username)).toHaveLength(0);
    expect(await checkoutOf(unpaid.intentId)).toMatchObject({ status: "pending" });
    expect(intentOf(unpaid.intentId).status).toBe("requires_payment_method");

    await instance.runOnce();
    expect(await receipts(paid.body.email)).toHaveLength(1);
    const res = await finish(paid.client, paid.intentId);
    expect(res.status, res.response.body).toBe(201);
    expect(await usersNamed(paid.body.username)).toHaveLength(1);
    await instance.close();
  });

  it("cancels and removes a checkout left unpaid for over a week; its browser is then told to register again", async () => {
    const { client, body, intentId } = await started();
    await t.database.db.execute(
      sql`update pending_checkouts set created_at = now() - interval '8 days', updated_at = now() - interval '8 days' where payment_intent_id = ${intentId}`,
    );
    const { instance, errors } = reconciler();
    await instance.runOnce();
    expect(errors).toEqual([]);
    expect(intentOf(intentId).status).toBe("canceled");
    expect(await checkoutOf(intentId)).toBeUndefined();
    const resumed = await startCheckout(client);
    expect(resumed.status).toBe(400);
    expect(resumed.error.message).toBe(MISSING_REGISTRATION);
    expect((await finish(client, intentId)).status).toBe(404);
    expect(await usersNamed(body.username)).toHaveLength(0);
    await instance.close();
  });

  it("leaves a recent checkout alone (its browser may be finishing right now)", async () => {
    const { body, intentId } = await started();
    fake.succeed(intentId);
    const { instance } = reconciler();
    await instance.runOnce();
    expect(await usersNamed(body.username)).toHaveLength(0);
    await instance.close();
  });
});

describe("logs", () => {
  it("never contain the client secret or the password", { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-checkout-logs-"));
    const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "debug", ...stripeEnv(fake, WEBHOOK_SECRET) });
    try {
      // Like the web client: a JSON body with its content type, or no body and no content type.
      const post = (url: string, body: unknown, cookie = "") =>
        fetch(`${server.url}${url}`, {
          method: "POST",
          headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(cookie ? { cookie } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const REGISTER = authApi.register.path;
      expect((await post(REGISTER, newAccount())).status).toBe(201);
      const body = form();
      const start = await post(START, body);
      expect(start.status).toBe(200);
      const { clientSecret, paymentIntentId } = paymentIntentResultSchema.parse(await start.json());
      const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      expect(cookie).toMatch(/^checkout=/);
      expect((await post(START, undefined, cookie)).status).toBe(200);
      expect((await post(REGISTER, { planType: "earlyAccess", paymentIntentId }, cookie)).status).toBe(402);
      fake.succeed(paymentIntentId);
      const event = signedWebhook(succeededEvent(paymentIntentId), WEBHOOK_SECRET);
      const hook = await fetch(`${server.url}${paymentsApi.webhook.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": event.signature },
        body: event.body,
      });
      expect(hook.status).toBe(200);
      expect((await post(REGISTER, { planType: "earlyAccess", paymentIntentId }, cookie)).status).toBe(201);
      // The log arrives through a pipe: wait for the line of each of the 7 calls above (plus the start-up poll).
      for (let waited = 0; (server.output().match(/request completed/g) ?? []).length < 8 && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const output = server.output();
      // Request logging was on (LOG_LEVEL debug), and neither the secret nor the intent id was written.
      expect(output).toContain("/api/create-payment-intent");
      expect(output).not.toContain(paymentIntentId);
      expect(output).not.toContain(clientSecret);
      expect(output).not.toContain(clientSecret.split("_secret_")[1]);
      expect(output).not.toContain(body.password);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
