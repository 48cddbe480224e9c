// A signed-in free user's Early Access upgrade (issue 12): the same checkout and verification as a new account, but
// it upgrades the account that pays, once, and nobody else's; plus the admin calls of the payment settings refusing
// non-admins. The registration checkout is in checkout.test.ts, the webhook and the reconciler in checkout-webhook.test.ts.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox } from "../../src/server/db/schema/index.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { ALREADY_EARLY_ACCESS, adminPaymentsApi, paymentsApi } from "../../src/shared/contracts/payments.js";
import { personalitiesApi } from "../../src/shared/contracts/personalities.js";
import { userApi } from "../../src/shared/contracts/user.js";
import type { StripeFake } from "../fakes/stripe-fake.js";
import { type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, checkoutForm, checkoutKit, checkoutStage } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_upgrade_tests";
const tutor = {
  name: "Socratic Tutor",
  description: "Answers with questions",
  tone: "Socratic",
  instructions: "Never give the answer directly; guide with questions.",
  temperature: 0.2,
  maxTokens: 512,
};

let t: TestApp;
let fake: StripeFake;
let admin: Browser;
const { browser, started, finish, intentOf } = checkoutKit(() => ({ app: t.app, fake }));
const form = checkoutForm;

async function usersNamed(username: string) {
  const { rows } = await t.database.db.execute(sql`select plan_type from users where lower(username) = lower(${username})`);
  return rows as { plan_type: string }[];
}
async function mails(to: string, template: string) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to.toLowerCase()), eq(emailOutbox.templateSlug, template)));
}

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake, admin } = stage);
});

describe("upgrading a signed-in free user", () => {
  async function freeUser() {
    const client = browser();
    const account = { ...newAccount(), planType: "free" as const };
    const res = await client.call(authApi.register, { body: account });
    expect(res.status).toBe(201);
    return { client, account, id: res.data.id };
  }
  const complete = (client: CookieClient, paymentIntentId: string) =>
    client.call(paymentsApi.completeUpgrade, { body: { paymentIntentId } });
  /** Starts (or finds) the signed-in user's upgrade intent: no body. */
  const start = (client: CookieClient) => client.call(paymentsApi.createPaymentIntent, { body: undefined });
  const planOf = async (client: CookieClient) => (await client.ok(userApi.me, {})).planType;
  const addTutor = (client: CookieClient) => client.call(personalitiesApi.create, { body: tutor });

  it("starts an upgrade intent, answers 402 before payment, then upgrades at once", async () => {
    const { client, account } = await freeUser();
    expect((await addTutor(client)).status).toBe(403);
    const res = await start(client);
    expect(res.status, res.response.body).toBe(200);
    // The keys as sent (the contract's parse would drop any other).
    expect(Object.keys(res.response.json()).sort()).toEqual(["clientSecret", "paymentIntentId"]);
    const intentId = res.data.paymentIntentId;
    expect(intentOf(intentId)).toMatchObject({ amount: 29700, currency: "usd" });
    expect(intentOf(intentId).metadata).toMatchObject({ kind: "upgrade" });
    // A double click gets the same intent.
    expect((await start(client)).data.paymentIntentId).toBe(intentId);

    const early = await complete(client, intentId);
    expect(early.status).toBe(402);
    expect(await planOf(client)).toBe("free");

    fake.succeed(intentId);
    const done = await complete(client, intentId);
    expect(done.status, done.response.body).toBe(200);
    expect(done.data).toMatchObject({ username: account.username, planType: "earlyAccess" });
    expect(await planOf(client)).toBe("earlyAccess");
    expect((await addTutor(client)).status).toBe(201);
    expect(await mails(account.email, "early-access-receipt")).toHaveLength(1);
    // Finishing again is harmless: still one receipt.
    expect((await complete(client, intentId)).status).toBe(200);
    expect(await mails(account.email, "early-access-receipt")).toHaveLength(1);

    const twice = await start(client);
    expect(twice.status).toBe(409);
    expect(twice.error.message).toBe(ALREADY_EARLY_ACCESS);
  });

  it("makes one upgrade intent for two parallel clicks", async () => {
    const { client } = await freeUser();
    const before = fake.createdCount();
    fake.delayMs = 100;
    const answers = await Promise.all([start(client), start(client)]);
    fake.delayMs = 0;
    for (const res of answers) expect(res.status, res.response.body).toBe(200);
    expect(answers[0]?.data.paymentIntentId).toBe(answers[1]?.data.paymentIntentId);
    expect(fake.createdCount()).toBe(before + 1);
  });

  it("refuses to complete someone else's upgrade (404), and changes neither account", async () => {
    const owner = await freeUser();
    const thief = await freeUser();
    const intentId = (await start(owner.client)).data.paymentIntentId;
    fake.succeed(intentId);
    const res = await complete(thief.client, intentId);
    expect(res.status).toBe(404);
    expect(await planOf(thief.client)).toBe("free");
    expect(await planOf(owner.client)).toBe("free");
    // Nor through the registration finish.
    expect((await finish(thief.client, intentId)).statusCode).toBe(403);
    // And a registration checkout's intent is not an upgrade.
    const registration = await started();
    fake.succeed(registration.intentId);
    expect((await complete(thief.client, registration.intentId)).status).toBe(404);
    expect(await usersNamed(registration.body.username)).toHaveLength(0);
    expect((await complete(owner.client, intentId)).data.planType).toBe("earlyAccess");
    expect(await planOf(thief.client)).toBe("free");
  });

  it("answers 401 signed out, and 400 to a signed-in user who sends a registration form", async () => {
    const signedOut = await complete(browser(), "pi_something123");
    expect(signedOut.status).toBe(401);
    const { client } = await freeUser();
    const before = fake.createdCount();
    const res = await client.call(paymentsApi.createPaymentIntent, { body: form() });
    expect(res.status).toBe(400);
    expect(res.error.message).toMatch(/signed in/i);
    expect(fake.createdCount()).toBe(before);
  });
});

describe("admin calls", () => {
  it("refuses visitors (401) and members (403) on the payment settings and unfinished payments", async () => {
    const member = browser();
    expect((await member.call(authApi.register, { body: { ...newAccount(), planType: "free" } })).status).toBe(201);
    const price = { earlyAccessPrice: "1", currency: "USD" };
    for (const [client, status] of [
      [browser(), 401],
      [member, 403],
    ] as const) {
      expect((await client.call(adminPaymentsApi.get, {})).status).toBe(status);
      expect((await client.call(adminPaymentsApi.update, { body: price })).status).toBe(status);
      expect((await client.call(adminPaymentsApi.create, { body: price })).status).toBe(status);
      expect((await client.call(adminPaymentsApi.unfinished, {})).status).toBe(status);
      expect((await client.call(adminPaymentsApi.resolveUnfinished, { params: { id: 1 } })).status).toBe(status);
      expect((await client.call(paymentsApi.checkSecrets, { body: { secretKeys: ["STRIPE_SECRET_KEY"] } })).status).toBe(status);
      expect((await client.call(paymentsApi.askSecrets, { body: { secret_keys: ["STRIPE_SECRET_KEY"] } })).status).toBe(status);
    }
    // Nothing changed, and the admin is let in.
    const settings = await admin.call(adminPaymentsApi.get, {});
    expect(settings.status).toBe(200);
    expect(settings.data).toMatchObject({ id: null, earlyAccessPrice: "297", currency: "USD", paymentsAvailable: true });
    expect(await admin.ok(adminPaymentsApi.unfinished, {})).toEqual([]);
  });
});
