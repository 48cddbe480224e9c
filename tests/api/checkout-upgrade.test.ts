// A signed-in free user's Early Access upgrade (issue 12): the same checkout and verification as a new account, but
// it upgrades the account that pays, once, and nobody else's; plus the admin calls of the payment settings refusing
// non-admins. The registration checkout is in checkout.test.ts, the webhook and the reconciler in checkout-webhook.test.ts.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox } from "../../src/server/db/schema/index.js";
import { ALREADY_EARLY_ACCESS } from "../../src/shared/contracts/payments.js";
import type { StripeFake } from "../fakes/stripe-fake.js";
import { type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, checkoutForm, checkoutKit, checkoutStage, START } from "../helpers/checkout-kit.js";

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
    const account = newAccount();
    const res = await client.post("/api/register", account);
    expect(res.statusCode).toBe(201);
    return { client, account, id: res.json().id as number };
  }
  const complete = (client: CookieClient, paymentIntentId: string) => client.post("/api/early-access/complete", { paymentIntentId });

  it("starts an upgrade intent, answers 402 before payment, then upgrades at once", async () => {
    const { client, account } = await freeUser();
    expect((await client.post("/api/personalities", tutor)).statusCode).toBe(403);
    const res = await client.post(START);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(["clientSecret", "paymentIntentId"]);
    const intentId = res.json().paymentIntentId as string;
    expect(intentOf(intentId)).toMatchObject({ amount: 29700, currency: "usd" });
    expect(intentOf(intentId).metadata).toMatchObject({ kind: "upgrade" });
    // A double click gets the same intent.
    expect((await client.post(START)).json().paymentIntentId).toBe(intentId);

    const early = await complete(client, intentId);
    expect(early.statusCode).toBe(402);
    expect((await client.get("/api/user")).json().planType).toBe("free");

    fake.succeed(intentId);
    const done = await complete(client, intentId);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ username: account.username, planType: "earlyAccess" });
    expect((await client.get("/api/user")).json().planType).toBe("earlyAccess");
    expect((await client.post("/api/personalities", tutor)).statusCode).toBe(201);
    expect(await mails(account.email, "early-access-receipt")).toHaveLength(1);
    // Finishing again is harmless: still one receipt.
    expect((await complete(client, intentId)).statusCode).toBe(200);
    expect(await mails(account.email, "early-access-receipt")).toHaveLength(1);

    const twice = await client.post(START);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(ALREADY_EARLY_ACCESS);
  });

  it("makes one upgrade intent for two parallel clicks", async () => {
    const { client } = await freeUser();
    const before = fake.createdCount();
    fake.delayMs = 100;
    const answers = await Promise.all([client.post(START), client.post(START)]);
    fake.delayMs = 0;
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(answers[0]?.json().paymentIntentId).toBe(answers[1]?.json().paymentIntentId);
    expect(fake.createdCount()).toBe(before + 1);
  });

  it("refuses to complete someone else's upgrade (404), and changes neither account", async () => {
    const owner = await freeUser();
    const thief = await freeUser();
    const intentId = (await owner.client.post(START)).json().paymentIntentId as string;
    fake.succeed(intentId);
    const res = await complete(thief.client, intentId);
    expect(res.statusCode).toBe(404);
    expect((await thief.client.get("/api/user")).json().planType).toBe("free");
    expect((await owner.client.get("/api/user")).json().planType).toBe("free");
    // Nor through the registration finish.
    expect((await finish(thief.client, intentId)).statusCode).toBe(403);
    // And a registration checkout's intent is not an upgrade.
    const registration = await started();
    fake.succeed(registration.intentId);
    expect((await complete(thief.client, registration.intentId)).statusCode).toBe(404);
    expect(await usersNamed(registration.body.username)).toHaveLength(0);
    expect((await complete(owner.client, intentId)).json().planType).toBe("earlyAccess");
    expect((await thief.client.get("/api/user")).json().planType).toBe("free");
  });

  it("answers 401 signed out, and 400 to a signed-in user who sends a registration form", async () => {
    const signedOut = await browser().post("/api/early-access/complete", { paymentIntentId: "pi_something123" });
    expect(signedOut.statusCode).toBe(401);
    const { client } = await freeUser();
    const before = fake.createdCount();
    const res = await client.post(START, form());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/signed in/i);
    expect(fake.createdCount()).toBe(before);
  });
});

describe("admin calls", () => {
  it("refuses visitors (401) and members (403) on the payment settings and unfinished payments", async () => {
    const member = browser();
    expect((await member.post("/api/register", newAccount())).statusCode).toBe(201);
    for (const [client, status] of [
      [browser(), 401],
      [member, 403],
    ] as const) {
      expect((await client.get("/api/admin/payment-settings")).statusCode).toBe(status);
      expect((await client.patch("/api/admin/payment-settings", { earlyAccessPrice: "1", currency: "USD" })).statusCode).toBe(status);
      expect((await client.post("/api/admin/payment-settings", { earlyAccessPrice: "1", currency: "USD" })).statusCode).toBe(status);
      expect((await client.get("/api/admin/unfinished-payments")).statusCode).toBe(status);
      expect((await client.post("/api/admin/unfinished-payments/1/resolve")).statusCode).toBe(status);
      expect((await client.post("/api/check-secrets", { secretKeys: ["STRIPE_SECRET_KEY"] })).statusCode).toBe(status);
      expect((await client.post("/api/ask-secrets", { secret_keys: ["STRIPE_SECRET_KEY"] })).statusCode).toBe(status);
    }
    // Nothing changed, and the admin is let in.
    const settings = await admin.get("/api/admin/payment-settings");
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ id: null, earlyAccessPrice: "297", currency: "USD", paymentsAvailable: true });
    expect((await admin.get("/api/admin/unfinished-payments")).json()).toEqual([]);
  });
});
