// Payment Settings (docs/product.md, Admin back office): admins read the price (the defaults, USD 297, until one
// is saved), create it once (POST) and save it (PATCH), with the form's messages; Stripe keys typed on the page
// are stored sealed and never leave the server (only a hint), an environment variable wins, null removes a saved
// key; the secrets calls check and request the keys; paid checkouts that could not finish are listed and resolved.
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingCheckouts } from "../../src/server/db/schema/index.js";
import { createOrPromoteAdmin } from "../../src/server/modules/auth/create-admin.js";
import { adminPaymentsApi, type PaymentSettingsBody, paymentsApi } from "../../src/shared/contracts/payments.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

const SECRET_KEY = "sk_test_51SecretKeyThatMustNeverLeave9XyZ";
const PUBLISHABLE_KEY = "pk_test_51PublishableKeyForTheBrowser7AbC";
const WEBHOOK_SECRET = "whsec_SigningSecretThatMustNeverLeave4QrS";
const ENV_SECRET_KEY = "sk_test_envKeyFromTheEnvironment0000EnvK";

let t: TestApp;
let admin: CookieClient;
let user: CookieClient;
let adminEmail: string;
/** Every answer body seen in this file: none may hold a key. */
const bodies: string[] = [];

const seen = <A extends { response: LightMyRequestResponse }>(answer: A) => {
  bodies.push(answer.response.body);
  return answer;
};
const read = async (client = admin) => seen(await client.call(adminPaymentsApi.get, {}));
const create = async (body: PaymentSettingsBody) => seen(await admin.call(adminPaymentsApi.create, { body }));
const update = async (body: PaymentSettingsBody) => seen(await admin.call(adminPaymentsApi.update, { body }));
/** The input's body is not sent with `rawBody`: a body the contract refuses goes as it is. */
const IGNORED: PaymentSettingsBody = { earlyAccessPrice: "297", currency: "USD" };
const createRaw = async (body: unknown) => seen(await admin.call(adminPaymentsApi.create, { body: IGNORED }, { rawBody: body }));
const updateRaw = async (body: unknown) => seen(await admin.call(adminPaymentsApi.update, { body: IGNORED }, { rawBody: body }));
/** The public read as sent (it must not hold what the contract would drop). */
const publicSettings = async () => seen(await callApp(t.app, publicContentApi.paymentSettings, {})).response.json();
const keyColumns = async () =>
  (
    await t.database.db.execute(
      sql`select stripe_secret_key_encrypted as secret, stripe_publishable_key_encrypted as publishable, stripe_webhook_secret_encrypted as webhook from payment_settings`,
    )
  ).rows as { secret: string | null; publishable: string | null; webhook: string | null }[];

const stripeEmails = async () =>
  (await t.database.db.execute(sql`select to_address, subject, text_body from email_outbox where subject like '%Stripe keys%' order by id`))
    .rows as { to_address: string; subject: string; text_body: string }[];

beforeAll(async () => {
  t = await buildTestApp();
  const first = await registerAndSignIn(t.app);
  if (first.user.role !== "admin") throw new Error("the first account should be admin");
  admin = first.client;
  adminEmail = first.body.email;
  user = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

describe("who may call", () => {
  it("refuses a visitor (401) and a member (403) on every admin call and on both secrets calls", async () => {
    const visitor = new CookieClient(t.app);
    for (const [client, status] of [
      [visitor, 401],
      [user, 403],
    ] as const) {
      const calls = [
        () => client.call(adminPaymentsApi.get, {}),
        () => client.call(adminPaymentsApi.create, { body: { earlyAccessPrice: "1", currency: "USD" } }),
        () => client.call(adminPaymentsApi.update, { body: { earlyAccessPrice: "1", currency: "USD" } }),
        () => client.call(adminPaymentsApi.unfinished, {}),
        () => client.call(adminPaymentsApi.resolveUnfinished, { params: { id: 1 } }),
        () => client.call(paymentsApi.checkSecrets, { body: { secretKeys: ["STRIPE_SECRET_KEY"] } }),
        () => client.call(paymentsApi.askSecrets, { body: { secret_keys: ["STRIPE_SECRET_KEY"], user_message: "" } }),
      ];
      for (const send of calls) {
        const res = await send();
        expect(res.status).toBe(status);
        expect(res.error.message).toBeTruthy();
      }
    }
    // Nothing was written by the refused calls.
    expect((await read()).data.id).toBeNull();
    expect(await stripeEmails()).toHaveLength(0);
  });
});

describe("price and currency", () => {
  it("answers the defaults (USD 297, id null) before anything is saved, and PATCH is refused until then", async () => {
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: null,
      earlyAccessPrice: "297",
      currency: "USD",
      stripePriceId: null,
      stripeProductId: null,
      paymentsAvailable: false,
      updatedAt: null,
    });
    // Each key's status as sent, whole.
    for (const key of ["secretKey", "publishableKey", "webhookSecret"]) {
      expect(res.response.json().keys[key]).toEqual({ present: false, source: null, hint: null, stored: false });
    }
    const patched = await update({ earlyAccessPrice: "199", currency: "USD" });
    expect(patched.status).toBe(404);
    expect(patched.error.message).toMatch(/No payment settings are saved yet/);
    expect((await read()).data.id).toBeNull();
  });

  it("refuses each wrong price or currency with the form's message", async () => {
    const cases: [unknown, string, string][] = [
      [{ currency: "USD" }, "earlyAccessPrice", "Price is required"],
      [{ earlyAccessPrice: "", currency: "USD" }, "earlyAccessPrice", "Price is required"],
      [{ earlyAccessPrice: "   ", currency: "USD" }, "earlyAccessPrice", "Price is required"],
      [{ earlyAccessPrice: "297" }, "currency", "Currency is required"],
      [{ earlyAccessPrice: "297", currency: "" }, "currency", "Currency is required"],
      [{ earlyAccessPrice: "297", currency: "US" }, "currency", "Use a three-letter currency code such as USD"],
      [{ earlyAccessPrice: "297", currency: "DOLLARS" }, "currency", "Use a three-letter currency code such as USD"],
      [{ earlyAccessPrice: "297", currency: "U$D" }, "currency", "Use a three-letter currency code such as USD"],
      [{ earlyAccessPrice: "12.5", currency: "JPY" }, "earlyAccessPrice", "JPY prices have no decimals"],
      [{ earlyAccessPrice: "-5", currency: "USD" }, "earlyAccessPrice", "Enter a price such as 297 or 19.50"],
      [{ earlyAccessPrice: "0", currency: "USD" }, "earlyAccessPrice", "The price must be more than zero"],
      [{ earlyAccessPrice: "0.00", currency: "EUR" }, "earlyAccessPrice", "The price must be more than zero"],
      [{ earlyAccessPrice: "12.345", currency: "USD" }, "earlyAccessPrice", "Enter a price such as 297 or 19.50"],
      [{ earlyAccessPrice: "abc", currency: "USD" }, "earlyAccessPrice", "Enter a price such as 297 or 19.50"],
    ];
    // Sent as they are (some miss a field the contract requires).
    for (const [body, field, message] of cases) {
      for (const send of [createRaw, updateRaw]) {
        const res = await send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect({ body, message: res.error.errors?.[field] }).toEqual({ body, message });
      }
    }
    expect((await read()).data.id).toBeNull();
  });

  it("creates the settings once (201, currency uppercased), refuses a second POST (409), then saves with PATCH", async () => {
    const created = await create({ earlyAccessPrice: "149.50", currency: "eur" });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ earlyAccessPrice: "149.50", currency: "EUR", paymentsAvailable: false });
    expect(created.data.id).toEqual(expect.any(Number));
    expect(created.data.updatedAt).not.toBeNull();
    const stored = (await t.database.db.execute(sql`select currency, early_access_price from payment_settings`)).rows;
    expect(stored).toEqual([{ currency: "EUR", early_access_price: "149.50" }]);

    const again = await create({ earlyAccessPrice: "1", currency: "USD" });
    expect(again.status).toBe(409);
    expect(again.error.message).toMatch(/already exist/);
    expect((await read()).data).toMatchObject({ earlyAccessPrice: "149.50", currency: "EUR" });

    const saved = await update({ earlyAccessPrice: " 5000 ", currency: " jpy " });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ id: created.data.id, earlyAccessPrice: "5000", currency: "JPY" });
    expect(await publicSettings()).toMatchObject({ earlyAccessPrice: "5000", currency: "JPY" });

    const back = await update({ earlyAccessPrice: "297", currency: "usd" });
    expect(back.data).toMatchObject({ earlyAccessPrice: "297", currency: "USD" });
    expect((await t.database.db.execute(sql`select id from payment_settings`)).rows).toHaveLength(1);
  });
});

describe("Stripe keys", () => {
  const price = { earlyAccessPrice: "297", currency: "USD" };

  it("stores typed keys sealed and answers only a hint; payments are available with both browser keys", async () => {
    expect(await publicSettings()).toMatchObject({ paymentsAvailable: false, publishableKey: null });

    // The keys' statuses compared as sent, whole.
    const onlySecret = await update({ ...price, stripeSecretKey: SECRET_KEY });
    expect(onlySecret.status).toBe(200);
    expect(onlySecret.response.json().keys.secretKey).toEqual({ present: true, source: "stored", hint: "sk_test_...9XyZ", stored: true });
    expect(onlySecret.data.paymentsAvailable).toBe(false);
    expect(await publicSettings()).toMatchObject({ paymentsAvailable: false, publishableKey: null });

    const both = await update({ ...price, stripePublishableKey: PUBLISHABLE_KEY, stripeWebhookSecret: WEBHOOK_SECRET });
    expect(both.status).toBe(200);
    const keys = both.response.json().keys;
    // Blank-or-absent kept the secret key saved before.
    expect(keys.secretKey).toMatchObject({ present: true, source: "stored", stored: true });
    expect(keys.publishableKey).toEqual({ present: true, source: "stored", hint: "pk_test_...7AbC", stored: true });
    expect(keys.webhookSecret).toEqual({ present: true, source: "stored", hint: "whsec_...4QrS", stored: true });
    expect(both.data.paymentsAvailable).toBe(true);

    // The public read: available, with the publishable key (the browser needs it), never the secret ones.
    const open = await publicSettings();
    expect(open).toMatchObject({ paymentsAvailable: true, publishableKey: PUBLISHABLE_KEY });
    expect(JSON.stringify(open)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(open)).not.toContain(WEBHOOK_SECRET);

    // Sealed in the database: none of the columns holds the key.
    const [row] = await keyColumns();
    expect(row?.secret).toBeTruthy();
    expect(row?.secret).not.toContain(SECRET_KEY);
    expect(row?.secret).not.toContain("9XyZ");
    expect(row?.publishable).not.toContain(PUBLISHABLE_KEY);
    expect(row?.webhook).not.toContain(WEBHOOK_SECRET);

    // Blank keeps the stored key.
    const blank = await update({ ...price, stripeSecretKey: "", stripePublishableKey: "", stripeWebhookSecret: "" });
    expect(blank.data.keys.secretKey.stored).toBe(true);
    expect((await keyColumns())[0]?.secret).toBe(row?.secret);
  });

  it("refuses a key that is not of its kind", async () => {
    const cases: [Partial<PaymentSettingsBody>, string, string][] = [
      [{ stripeSecretKey: PUBLISHABLE_KEY }, "stripeSecretKey", "The secret key starts with sk_"],
      [{ stripePublishableKey: SECRET_KEY }, "stripePublishableKey", "The publishable key starts with pk_"],
      [{ stripeWebhookSecret: "secret" }, "stripeWebhookSecret", "The webhook signing secret starts with whsec_"],
    ];
    for (const [keys, field, message] of cases) {
      const res = await update({ ...price, ...keys });
      expect(res.status).toBe(400);
      expect(res.error.errors?.[field]).toBe(message);
    }
  });

  it("removes a stored key with null", async () => {
    const res = await update({ ...price, stripePublishableKey: null });
    expect(res.status).toBe(200);
    expect(res.response.json().keys.publishableKey).toEqual({ present: false, source: null, hint: null, stored: false });
    expect(res.data.keys.secretKey.present).toBe(true);
    expect(res.data.paymentsAvailable).toBe(false);
    expect((await keyColumns())[0]?.publishable).toBeNull();
    expect(await publicSettings()).toMatchObject({ paymentsAvailable: false, publishableKey: null });
  });

  it("never answers a secret key, on any call of this file", async () => {
    await read();
    const all = bodies.join("\n");
    // The publishable key is public (the checkout needs it); the other two never leave the server.
    for (const key of [SECRET_KEY, WEBHOOK_SECRET, "SecretKeyThatMustNeverLeave", "SigningSecretThatMustNeverLeave"]) {
      expect(all).not.toContain(key);
    }
    const adminBodies = bodies.filter((body) => body.includes('"keys"')).join("\n");
    expect(adminBodies).not.toContain(PUBLISHABLE_KEY);
  });
});

describe("an environment key", () => {
  let envApp: TestApp;
  beforeAll(async () => {
    envApp = await buildTestApp({ env: { STRIPE_SECRET_KEY: ENV_SECRET_KEY } });
  });
  afterAll(async () => {
    await envApp?.close();
  });

  it("wins over a key saved on the page, which still shows as stored", async () => {
    const { client } = await registerAndSignIn(envApp.app);
    // The keys' statuses and the public read compared as sent, whole.
    const before = (await client.call(adminPaymentsApi.get, {})).response.json();
    expect(before.keys.secretKey).toEqual({ present: true, source: "environment", hint: "sk_test_...EnvK", stored: false });

    const saved = await client.call(adminPaymentsApi.create, {
      body: { earlyAccessPrice: "297", currency: "USD", stripeSecretKey: SECRET_KEY, stripePublishableKey: PUBLISHABLE_KEY },
    });
    expect(saved.status).toBe(201);
    expect(saved.response.json().keys.secretKey).toEqual({ present: true, source: "environment", hint: "sk_test_...EnvK", stored: true });
    expect(saved.data.keys.publishableKey.source).toBe("stored");
    expect(saved.response.body).not.toContain(ENV_SECRET_KEY);
    expect(saved.response.body).not.toContain(SECRET_KEY);

    // Removing the saved one leaves the environment's in use.
    const removed = await client.call(adminPaymentsApi.update, {
      body: { earlyAccessPrice: "297", currency: "USD", stripeSecretKey: null },
    });
    expect(removed.response.json().keys.secretKey).toEqual({
      present: true,
      source: "environment",
      hint: "sk_test_...EnvK",
      stored: false,
    });
    const open = (await callApp(envApp.app, publicContentApi.paymentSettings, {})).response.json();
    expect(open).toEqual({ earlyAccessPrice: "297", currency: "USD", paymentsAvailable: true, publishableKey: PUBLISHABLE_KEY });
    const check = await client.call(paymentsApi.checkSecrets, { body: { secretKeys: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] } });
    expect(check.data).toEqual({ STRIPE_SECRET_KEY: true, STRIPE_WEBHOOK_SECRET: false });
  });
});

describe("secrets calls", () => {
  it("check-secrets answers a map for the names asked (an unknown name is false)", async () => {
    const checkSecrets = (secretKeys: string[]) => admin.call(paymentsApi.checkSecrets, { body: { secretKeys } });
    const res = await checkSecrets(["STRIPE_SECRET_KEY", "VITE_STRIPE_PUBLIC_KEY", "STRIPE_WEBHOOK_SECRET", "OPENAI_API_KEY"]);
    expect(res.status).toBe(200);
    // The publishable key was removed above; the other two are saved.
    expect(res.data).toEqual({
      STRIPE_SECRET_KEY: true,
      VITE_STRIPE_PUBLIC_KEY: false,
      STRIPE_WEBHOOK_SECRET: true,
      OPENAI_API_KEY: false,
    });
    expect((await checkSecrets([])).data).toEqual({});
    // A body without the list, sent as it is.
    expect((await admin.call(paymentsApi.checkSecrets, { body: { secretKeys: [] } }, { rawBody: {} })).status).toBe(400);
  });

  it("ask-secrets refuses an empty list, and emails every active admin through the outbox", async () => {
    const askSecrets = (secret_keys: string[], user_message: string) =>
      admin.call(paymentsApi.askSecrets, { body: { secret_keys, user_message } });
    const empty = await askSecrets([], "");
    expect(empty.status).toBe(400);
    expect(empty.error.message).toBe("No secret keys provided");
    const blanks = await askSecrets(["  "], "");
    expect(blanks.status).toBe(400);
    expect(await stripeEmails()).toHaveLength(0);

    // A second admin (emailed) and an inactive one (not emailed).
    const second = await registerAndSignIn(t.app);
    await createOrPromoteAdmin({ db: t.database.db, input: { username: second.body.username } });
    const gone = await registerAndSignIn(t.app);
    await createOrPromoteAdmin({ db: t.database.db, input: { username: gone.body.username } });
    await t.database.db.execute(sql`update users set status = 'inactive' where username = ${gone.body.username}`);

    const res = await askSecrets(["VITE_STRIPE_PUBLIC_KEY", "STRIPE_SECRET_KEY"], "Needed before Friday's launch.");
    expect(res.status).toBe(200);
    expect(res.data.notified).toBe(2);
    expect(res.data.message).toMatch(/We emailed 2 administrators/);
    expect(res.data.message).toMatch(/check the server logs/);

    const rows = await stripeEmails();
    expect(rows.map((r) => r.to_address.toLowerCase()).sort()).toEqual([adminEmail.toLowerCase(), second.body.email.toLowerCase()].sort());
    for (const row of rows) {
      expect(row.subject).toMatch(/Stripe keys/);
      expect(row.text_body).toContain("VITE_STRIPE_PUBLIC_KEY");
      expect(row.text_body).toContain("/api/stripe/webhook");
      expect(row.text_body).toContain("Needed before Friday's launch.");
      expect(row.text_body).not.toContain(SECRET_KEY);
    }
  });
});

describe("payments that need attention", () => {
  const seed = async (status: "attention" | "pending", overrides: Partial<typeof pendingCheckouts.$inferInsert> = {}) => {
    const [row] = await t.database.db
      .insert(pendingCheckouts)
      .values({
        kind: "register",
        status,
        username: `payer${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        email: "payer@example.com",
        bindingNonce: `nonce-${Math.random()}`,
        paymentIntentId: `pi_3Test${Math.random().toString(36).slice(2, 14)}`,
        amountMinor: 29700,
        currency: "usd",
        problem: "The username was taken while the payment went through.",
        ...overrides,
      })
      .returning({ id: pendingCheckouts.id, username: pendingCheckouts.username });
    if (!row) throw new Error("seed failed");
    return row;
  };

  it("lists paid checkouts in attention (newest first) and resolves them; 404 for unknown or not waiting", async () => {
    const unfinished = () => admin.call(adminPaymentsApi.unfinished, {});
    const resolve = (id: number) => admin.call(adminPaymentsApi.resolveUnfinished, { params: { id } });
    expect((await unfinished()).data).toEqual([]);
    const older = await seed("attention", {
      updatedAt: new Date(Date.now() - 60_000),
      kind: "upgrade",
      amountMinor: 500000,
      currency: "jpy",
    });
    const newer = await seed("attention");
    const waiting = await seed("pending");

    const list = await unfinished();
    expect(list.status).toBe(200);
    expect(list.data.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(list.data[0]).toMatchObject({
      id: newer.id,
      kind: "register",
      username: newer.username,
      email: "payer@example.com",
      amount: "297.00",
      currency: "USD",
      problem: "The username was taken while the payment went through.",
    });
    expect(list.data[1]).toMatchObject({ kind: "upgrade", amount: "500000", currency: "JPY" });

    expect((await resolve(newer.id)).status).toBe(204);
    expect((await unfinished()).data.map((p) => p.id)).toEqual([older.id]);

    for (const id of [newer.id, waiting.id, 999_999]) {
      const res = await resolve(id);
      expect(res.status).toBe(404);
      expect(res.error.message).toBe("This payment is not waiting for an admin.");
    }

    const statuses = (await t.database.db.execute(sql`select id, status from pending_checkouts order by id`)).rows;
    expect(statuses).toEqual([
      { id: older.id, status: "attention" },
      { id: newer.id, status: "resolved" },
      { id: waiting.id, status: "pending" },
    ]);
  });
});
