// The outbox (issue 11): every email is stored, then sent by a worker with retries; SMTP down loses nothing
// and sends once when it is back; with no SMTP server the email is kept as `test` and previewable by admins.
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, emailTemplates, platformSettings } from "../../src/server/db/schema/index.js";
import { OutboxWorker, retryDelayMs, totalRetryWaitMs } from "../../src/server/modules/email/outbox-worker.js";
import { PRODUCT_EMAILS } from "../../src/server/modules/email/product-email-slugs.js";
import { queueEmail, queueRendered } from "../../src/server/modules/email/queue.js";
import { SEEDED_TEMPLATES, seedEmailTemplates } from "../../src/server/modules/email/seed-templates.js";
import { describeSmtpError } from "../../src/server/modules/email/transport.js";
import { emailOutboxApi } from "../../src/shared/contracts/email-outbox.js";
import { errorBodySchema } from "../../src/shared/contracts/errors.js";
import { platformSettingsApi } from "../../src/shared/contracts/platform-settings.js";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { rawAddress } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser } from "../helpers/chat-setup.js";

type Row = typeof emailOutbox.$inferSelect;

let t: TestApp;
let smtp: SmtpFake;
let admin: CookieClient;
let user: CookieClient;
let worker: OutboxWorker;
const timing = { tickMs: 40, baseDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 };

beforeAll(async () => {
  smtp = await startSmtpFake();
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
  // The app's worker ticks every second with 5 s retries; this one runs the same code on a test clock.
  await t.app.ctx.outbox.close();
  worker = new OutboxWorker({ db: t.database.db, secrets: t.app.ctx.secrets, timing });
  await worker.start();
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await smtp?.close();
});

const db = () => t.database.db;
let counter = 0;
const recipient = () => `person${Date.now().toString(36)}${++counter}@example.com`;
const rowOf = async (id: number) => (await db().select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0] as Row;
const resend = (id: number) => admin.call(emailOutboxApi.resend, { params: { id } });
const to = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * SMTP through PATCH /api/admin/platform-settings, which must take it (a refusal fails the test, it is not worked
 * around); no SMTP server (which that form cannot set) by writing the row directly.
 */
async function configureSmtp(fake: SmtpFake | null) {
  if (fake) {
    const res = await admin.call(platformSettingsApi.update, {
      body: {
        smtpHost: fake.host,
        smtpPort: String(fake.port),
        smtpSecure: false,
        smtpUser: FAKE_SMTP_USER,
        smtpPass: FAKE_SMTP_PASS,
        smtpFromEmail: "noreply@lumora.test",
        smtpFromName: "Lumora",
      },
    });
    expect(res.status, res.response.body).toBe(200);
    expect(res.data.smtpHost).toBe(fake.host);
    return;
  }
  const values = { smtpHost: null, smtpUser: null, smtpPassEncrypted: null, smtpFromEmail: null, smtpFromName: null };
  const [row] = await db().select({ id: platformSettings.id }).from(platformSettings).orderBy(asc(platformSettings.id)).limit(1);
  if (row) await db().update(platformSettings).set(values).where(eq(platformSettings.id, row.id));
  else await db().insert(platformSettings).values(values);
}

describe("the product templates", () => {
  it("are seeded once with text and HTML parts, and an edited one is never overwritten", async () => {
    const rows = await db().select().from(emailTemplates);
    const slugs = rows.map((r) => r.slug);
    for (const slug of Object.values(PRODUCT_EMAILS)) expect(slugs).toContain(slug);
    for (const seeded of SEEDED_TEMPLATES) {
      expect(seeded.subject).toContain("{{platformName}}");
      expect(seeded.textContent.length).toBeGreaterThan(20);
      expect(seeded.htmlContent).toContain("<");
    }
    const reset = rows.find((r) => r.slug === PRODUCT_EMAILS.passwordReset);
    expect(reset?.textContent).toContain("{{resetUrl}}");
    await db().update(emailTemplates).set({ subject: "Edited {{name}}" }).where(eq(emailTemplates.slug, PRODUCT_EMAILS.welcome));
    await seedEmailTemplates(db());
    const [welcome] = await db().select().from(emailTemplates).where(eq(emailTemplates.slug, PRODUCT_EMAILS.welcome));
    expect(welcome?.subject).toBe("Edited {{name}}");
    const again = await db().select().from(emailTemplates);
    expect(again.length).toBe(rows.length);
    await db()
      .update(emailTemplates)
      .set({ subject: SEEDED_TEMPLATES[0]?.subject as string })
      .where(eq(emailTemplates.slug, PRODUCT_EMAILS.welcome));
  });
});

describe("with no SMTP server configured", () => {
  it("keeps the email as `test` (never sent) and an admin previews it as JSON, its variables escaped", async () => {
    await configureSmtp(null);
    const address = recipient();
    const { id } = await queueEmail({
      db: db(),
      to: address,
      template: PRODUCT_EMAILS.welcome,
      data: { name: "<img src=x onerror=alert(1)>", username: "ada", loginUrl: "http://localhost/login" },
    });
    const row = await until(
      () => rowOf(id),
      (r) => r.status !== "queued" && r.status !== "sending",
    );
    expect(row.status).toBe("test");
    expect(row.attempts).toBe(0);
    expect(to(address)).toHaveLength(0);

    const preview = await admin.call(emailOutboxApi.get, { params: { id } });
    expect(preview.status).toBe(200);
    expect(preview.headers["content-type"]).toMatch(/^application\/json/);
    const body = preview.data;
    expect(body).toMatchObject({ id, to: address, templateSlug: "welcome", status: "test", sentAt: null });
    expect(body.subject).toBe("Welcome to Lumora, <img src=x onerror=alert(1)>!");
    expect(body.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(body.html).not.toContain("<img src=x");
    expect(body.text).toContain("http://localhost/login");

    const list = await admin.call(emailOutboxApi.list, { query: { status: "test" } });
    expect(list.status).toBe(200);
    const { items } = list.data;
    expect(items.some((i) => i.id === id)).toBe(true);
    expect(items.every((i) => i.status === "test")).toBe(true);
    // Read as sent: the contract's parse would drop the key.
    expect(list.response.json()[0]).not.toHaveProperty("html");
  });
});

describe("with SMTP configured", () => {
  beforeAll(() => configureSmtp(smtp));

  it("sends a queued email once, with its subject, text and HTML, logged in and from the configured sender", async () => {
    const address = recipient();
    const { id } = await queueEmail({
      db: db(),
      to: address,
      template: PRODUCT_EMAILS.passwordReset,
      data: { name: "Ada & Co", resetUrl: "http://localhost/reset-password?token=abc123" },
    });
    const row = await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(row.sentAt).not.toBeNull();
    expect(row.claimedBy).toBeNull();
    // The attempt that sent it counts (issue 29: sent emails showed 0 attempts), on the admins' outbox too.
    expect(row.attempts).toBe(1);
    const listed = (await admin.ok(emailOutboxApi.list, { query: { status: "sent", limit: 100 } })).items;
    expect(listed.find((item) => item.id === id)?.attempts).toBe(1);
    const [mail] = to(address);
    expect(to(address)).toHaveLength(1);
    expect(mail?.subject).toBe("Reset your Lumora password");
    expect(mail?.text).toContain("http://localhost/reset-password?token=abc123");
    expect(mail?.text).toContain("Hi Ada & Co,");
    expect(mail?.html).toContain("Hi Ada &amp; Co,");
    expect(mail?.user).toBe(FAKE_SMTP_USER);
    expect(mail?.from).toBe("noreply@lumora.test");
    expect(mail?.parsed.from?.value[0]).toMatchObject({ name: "Lumora", address: "noreply@lumora.test" });
  });

  it("SMTP down: the email stays queued with attempts and the reason; back up: it arrives exactly once", async () => {
    await smtp.stop();
    const address = recipient();
    const { id } = await queueRendered({
      db: db(),
      to: address,
      templateSlug: null,
      subject: "Down then up",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    const waiting = await until(
      () => rowOf(id),
      (r) => r.attempts >= 2,
    );
    expect(waiting.status).toBe("queued");
    expect(waiting.lastError).toMatch(/^Connection refused \(127\.0\.0\.1:\d+\): check the host and port/);
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    await smtp.start();
    const sent = await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(sent.lastError).toBeNull();
    // The failed attempts and the one that sent it.
    expect(sent.attempts).toBeGreaterThan(waiting.attempts);
    await new Promise((r) => setTimeout(r, 500));
    expect(to(address)).toHaveLength(1);
    expect(to(address)[0]?.subject).toBe("Down then up");
  });

  it("a refused login is a clear reason, and the email goes once the login works", async () => {
    smtp.refuseAuth = true;
    const address = recipient();
    const { id } = await queueRendered({ db: db(), to: address, templateSlug: null, subject: "Auth", text: "a", html: "<p>a</p>" });
    const refused = await until(
      () => rowOf(id),
      (r) => r.attempts >= 1,
    );
    expect(refused.lastError).toBe("SMTP authentication failed: check the SMTP username and password.");
    smtp.refuseAuth = false;
    await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(to(address)).toHaveLength(1);
  });

  it("takes over an email a dead instance was sending, and leaves a fresh claim alone", async () => {
    const stale = await queueRendered({ db: db(), to: recipient(), templateSlug: null, subject: "Stale", text: "s", html: "<p>s</p>" });
    const fresh = await queueRendered({ db: db(), to: recipient(), templateSlug: null, subject: "Fresh", text: "f", html: "<p>f</p>" });
    await worker.close();
    await db()
      .update(emailOutbox)
      .set({ status: "sending", claimedBy: "dead-instance", claimedAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(emailOutbox.id, stale.id));
    await db()
      .update(emailOutbox)
      .set({ status: "sending", claimedBy: "busy-instance", claimedAt: new Date() })
      .where(eq(emailOutbox.id, fresh.id));
    await worker.start();
    await until(
      () => rowOf(stale.id),
      (r) => r.status === "sent",
    );
    expect((await rowOf(fresh.id)).status).toBe("sending");
    await db().update(emailOutbox).set({ status: "failed", claimedBy: null }).where(eq(emailOutbox.id, fresh.id));
  });

  it("gives up after its retries have spanned the limit (failed), and the resend queues it again", async () => {
    await worker.close();
    const short = new OutboxWorker({ db: db(), secrets: t.app.ctx.secrets, timing: { ...timing, giveUpAfterMs: 250 } });
    await smtp.stop();
    const address = recipient();
    const { id } = await queueRendered({ db: db(), to: address, templateSlug: null, subject: "Give up", text: "g", html: "<p>g</p>" });
    await short.start();
    const failed = await until(
      () => rowOf(id),
      (r) => r.status === "failed",
    );
    await short.close();
    expect(failed.attempts).toBe(2); // waits 100 then 200: past 250 after the second failure
    expect(failed.lastError).toMatch(/^Connection refused/);
    await smtp.start();
    await worker.start();

    const resent = await resend(id);
    expect(resent.status).toBe(200);
    expect(resent.data).toMatchObject({ id, status: "queued", attempts: 0, lastError: null });
    await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(to(address)).toHaveLength(1);
  });

  it("resends a sent or test email; refuses one still waiting (409), an unknown id (404) and a bad id (400)", async () => {
    const address = recipient();
    const { id } = await queueRendered({ db: db(), to: address, templateSlug: null, subject: "Again", text: "r", html: "<p>r</p>" });
    await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect((await resend(id)).status).toBe(200);
    await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(to(address)).toHaveLength(2);

    await db().update(emailOutbox).set({ status: "test" }).where(eq(emailOutbox.id, id));
    expect((await resend(id)).status).toBe(200);
    await until(
      () => rowOf(id),
      (r) => r.status === "sent",
    );
    expect(to(address)).toHaveLength(3);

    await worker.close();
    const waiting = await queueRendered({ db: db(), to: recipient(), templateSlug: null, subject: "Wait", text: "w", html: "<p>w</p>" });
    const conflict = await resend(waiting.id);
    expect(conflict.status).toBe(409);
    expect(conflict.error.message).toBe("This email is already waiting to be sent.");
    await worker.start();

    expect((await resend(999999)).status).toBe(404);
    expect((await admin.call(emailOutboxApi.get, { params: { id: 999999 } })).status).toBe(404);
    // Ids the contract's type does not allow: the malformed paths sent raw.
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999", "%00"]) {
      expect((await admin.post(rawAddress(emailOutboxApi.resend, { id: bad }))).statusCode).toBe(400);
      expect((await admin.get(rawAddress(emailOutboxApi.get, { id: bad }))).statusCode).toBe(400);
    }
  });
});

describe("the outbox list", () => {
  it("pages newest first with the next cursor in x-next-cursor, and filters by status", async () => {
    for (let i = 0; i < 3; i++)
      await queueRendered({ db: db(), to: recipient(), templateSlug: null, subject: `Page ${i}`, text: "p", html: "<p>p</p>" });
    const first = await admin.call(emailOutboxApi.list, { query: { limit: 2 } });
    expect(first.status).toBe(200);
    const page1 = first.data.items;
    expect(page1).toHaveLength(2);
    expect(page1[0]?.id).toBeGreaterThan(page1[1]?.id as number);
    const cursor = first.headers["x-next-cursor"];
    expect(cursor).toBe(String(page1[1]?.id));
    expect(first.data.nextCursor).toBe(cursor);
    const page2 = (await admin.ok(emailOutboxApi.list, { query: { limit: 2, cursor: first.data.nextCursor ?? undefined } })).items;
    expect(page2[0]?.id).toBeLessThan(page1[1]?.id as number);
    // An empty status is no filter.
    const all = await admin.call(emailOutboxApi.list, { query: { status: "", limit: 100 } });
    expect(all.status).toBe(200);
    expect(all.data.items.some((r) => r.status === "sent")).toBe(true);
  });

  it("refuses bad queries with a 400 (never a 5xx)", async () => {
    // Queries the contract's type does not allow: sent raw.
    for (const query of [
      "status=bogus",
      "status=SENT",
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=1.5",
      "cursor=-1",
      "cursor=abc",
      "cursor=99999999999",
      "status=sent&status=failed",
    ]) {
      const res = await admin.get(rawAddress(emailOutboxApi.list, {}, query));
      expect(res.statusCode, query).toBe(400);
      expect(typeof errorBodySchema.parse(res.json()).message).toBe("string");
    }
  });
});

describe("access", () => {
  it("every outbox call is 401 signed out and 403 for a non-admin", async () => {
    const [row] = await db().select({ id: emailOutbox.id }).from(emailOutbox).limit(1);
    const id = row?.id as number;
    const anonymous = new CookieClient(t.app);
    const calls = [
      (c: CookieClient) => c.call(emailOutboxApi.list, {}),
      (c: CookieClient) => c.call(emailOutboxApi.get, { params: { id } }),
      (c: CookieClient) => c.call(emailOutboxApi.resend, { params: { id } }),
    ];
    for (const call of calls) {
      expect((await call(anonymous)).status).toBe(401);
      const refused = await call(user);
      expect(refused.status).toBe(403);
      expect(refused.response.body).not.toContain("<p>");
    }
  });
});

describe("retry timing and reasons", () => {
  it("waits 5 s, doubling, capped at 5 minutes, and gives up after about 24 hours", () => {
    const real = { baseDelayMs: 5000, maxDelayMs: 300_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, real))).toEqual([
      5000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
    ]);
    const day = 24 * 60 * 60_000;
    const attempts = Array.from({ length: 400 }, (_, i) => i + 1).find((n) => totalRetryWaitMs(n, real) >= day) as number;
    expect(attempts).toBeGreaterThan(280);
    expect(attempts).toBeLessThan(300);
  });

  it("turns nodemailer errors into reasons an admin can act on", () => {
    const at = { host: "smtp.example.com", port: 587 };
    expect(
      describeSmtpError(Object.assign(new Error("Invalid login: 535 5.7.8 bad"), { code: "EAUTH", responseCode: 535 }), at).reason,
    ).toBe("SMTP authentication failed: check the SMTP username and password.");
    expect(describeSmtpError(Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" }), at).reason).toMatch(
      /^The SMTP server did not answer in time \(smtp\.example\.com:587\)/,
    );
    expect(describeSmtpError(Object.assign(new Error("Greeting never received"), { code: "ETIMEDOUT" }), at).reason).toMatch(
      /did not answer in time/,
    );
    expect(describeSmtpError(Object.assign(new Error("connect ECONNREFUSED 1.2.3.4:587"), { code: "ESOCKET" }), at).reason).toMatch(
      /^Connection refused/,
    );
    expect(describeSmtpError(Object.assign(new Error("140:error:wrong version number"), { code: "ESOCKET" }), at).reason).toMatch(
      /^TLS failed/,
    );
    expect(describeSmtpError(Object.assign(new Error("getaddrinfo ENOTFOUND smtp.nope"), { code: "EDNS" }), at).reason).toMatch(
      /^SMTP host not found/,
    );
    const rejected = describeSmtpError(
      Object.assign(new Error("Can't send mail - all recipients were rejected"), {
        code: "EENVELOPE",
        responseCode: 550,
        response: "550 No such user",
      }),
      at,
    );
    expect(rejected).toEqual({ reason: "The SMTP server refused the message: 550 No such user", permanent: true });
  });
});
