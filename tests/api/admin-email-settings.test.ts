// Email Settings (docs/product.md, Admin back office; issue 11): the SMTP fields of the platform settings (password
// sealed, never answered, blank keeps it), the SMTP test against a real SMTP peer on 127.0.0.1 (success, refused,
// auth failed, a message that arrives), and the email templates (rules with the product's messages, 409s, test sends
// through the outbox with the variables escaped in the HTML part).
import { createServer, type Server } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailTemplates } from "../../src/server/db/schema/index.js";
import {
  PRODUCT_TEMPLATE_SLUG_FIXED,
  RECIPIENT_INVALID,
  TEMPLATE_SLUG_TAKEN,
  TEST_DATA_NOT_OBJECT,
} from "../../src/shared/contracts/email.js";
import { type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser } from "../helpers/chat-setup.js";

const SETTINGS = "/api/admin/platform-settings";
const TEMPLATES = "/api/admin/email-templates";
const SMTP_TEST = "/api/admin/smtp-test";
const SMTP_USER = "mailer";
const SMTP_PASS = "smtp-Pa55word-NEVER-SHOWN";

/** A port nothing listens on (bound, read, released). */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let t: TestApp;
let admin: CookieClient;
let user: CookieClient;
/** A real SMTP server (tests/fakes/smtp-fake.ts) that takes a message only after a login as SMTP_USER / SMTP_PASS. */
let smtp: SmtpFake;
beforeAll(async () => {
  smtp = await startSmtpFake({ user: SMTP_USER, pass: SMTP_PASS, requireAuth: true });
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const smtpForm = (over: Record<string, unknown> = {}) => ({
  smtpHost: "127.0.0.1",
  smtpPort: String(smtp.port),
  smtpSecure: false,
  smtpUser: SMTP_USER,
  smtpPass: SMTP_PASS,
  smtpFromEmail: "noreply@example.com",
  smtpFromName: "Lumora Mail",
  ...over,
});
const template = (over: Record<string, unknown> = {}) => ({
  name: "Course Reminder",
  slug: `course-reminder-${Math.random().toString(36).slice(2, 8)}`,
  subject: "Hello {{name}} from {{platformName}}",
  description: "Reminds a learner",
  textContent: "Hi {{name}}, keep going!",
  htmlContent: "<p>Hi {{name}}, keep going!</p>",
  ...over,
});
const storedSettings = async () =>
  (await t.database.db.execute(sql`select smtp_host, smtp_port, smtp_user, smtp_pass_encrypted from platform_settings`)).rows[0] as
    | { smtp_host: string | null; smtp_port: string; smtp_user: string | null; smtp_pass_encrypted: string | null }
    | undefined;
const createTemplate = async (over: Record<string, unknown> = {}) => {
  const res = await admin.post(TEMPLATES, template(over));
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; slug: string; name: string; variables: string[]; isProductEmail: boolean };
};
const productTemplate = async (slug: string) => {
  await t.database.db
    .insert(emailTemplates)
    .values({ name: `Product ${slug}`, slug, subject: "S {{name}}", textContent: "T", htmlContent: "<p>H</p>" })
    .onConflictDoNothing();
  const [row] = await t.database.db.select().from(emailTemplates).where(sql`slug = ${slug}`);
  if (!row) throw new Error("no product template");
  return row;
};
const outboxRow = async (id: number) =>
  (await t.database.db.execute(sql`select to_address, template_slug, subject, text_body, html_body from email_outbox where id = ${id}`))
    .rows[0] as { to_address: string; template_slug: string; subject: string; text_body: string; html_body: string } | undefined;

describe("who may call", () => {
  it("refuses a visitor (401) and a member (403) on every email call, and changes nothing", async () => {
    const existing = await createTemplate();
    const visitor = new CookieClient(t.app);
    const calls = [
      { method: "GET", url: TEMPLATES },
      { method: "POST", url: TEMPLATES, payload: template() },
      { method: "PATCH", url: `${TEMPLATES}/${existing.id}`, payload: { name: "Hijacked" } },
      { method: "DELETE", url: `${TEMPLATES}/${existing.id}` },
      { method: "POST", url: `${TEMPLATES}/${existing.id}/test`, payload: { recipientEmail: "a@example.com", testData: {} } },
      { method: "POST", url: SMTP_TEST, payload: smtpForm() },
      { method: "PATCH", url: SETTINGS, payload: smtpForm() },
    ] as const;
    for (const [client, status] of [
      [visitor, 401],
      [user, 403],
    ] as const) {
      for (const c of calls) {
        const res = await client.request({ method: c.method, url: c.url, payload: "payload" in c ? c.payload : undefined });
        expect({ call: `${c.method} ${c.url}`, status: res.statusCode }).toEqual({ call: `${c.method} ${c.url}`, status });
        expect(res.json().message).toBeTruthy();
      }
    }
    const list = (await admin.get(TEMPLATES)).json() as { id: number; name: string }[];
    expect(list.find((x) => x.id === existing.id)?.name).toBe("Course Reminder");
    expect((await storedSettings())?.smtp_host ?? null).toBeNull();
    expect(smtp.messages).toHaveLength(0);
  });
});

describe("SMTP settings (PATCH /api/admin/platform-settings)", () => {
  it("refuses each missing or invalid field with the product's message", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ smtpHost: "" }, "smtpHost", "SMTP host is required"],
      [{ smtpHost: "   " }, "smtpHost", "SMTP host is required"],
      [{ smtpUser: "" }, "smtpUser", "SMTP username is required"],
      [{ smtpFromEmail: "not-an-email" }, "smtpFromEmail", "Enter a valid email"],
      [{ smtpFromEmail: "" }, "smtpFromEmail", "Enter a valid email"],
      [{ smtpPort: "seventy" }, "smtpPort", "Port must be a number from 1 to 65535"],
      [{ smtpPort: "70000" }, "smtpPort", "Port must be a number from 1 to 65535"],
      [{ smtpPort: 587 }, "smtpPort", "Port must be a number from 1 to 65535"],
      [{ smtpFromName: "Evil\r\nBcc: x@example.com" }, "smtpFromName", "From name must be a single line of text"],
    ];
    for (const [over, field, message] of cases) {
      const res = await admin.patch(SETTINGS, smtpForm(over));
      expect({ over, status: res.statusCode, message: res.json().errors?.[field] }).toEqual({ over, status: 400, message });
    }
    // No password stored yet: a blank one is refused.
    const blank = await admin.patch(SETTINGS, smtpForm({ smtpPass: "" }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.smtpPass).toBe("SMTP password is required");
    // A partial save cannot leave the SMTP settings incomplete either.
    const partial = await admin.patch(SETTINGS, { smtpHost: "smtp.example.com" });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors).toMatchObject({ smtpUser: "SMTP username is required", smtpPass: "SMTP password is required" });
    expect((await storedSettings())?.smtp_host ?? null).toBeNull();
  });

  it("stores the password sealed, never answers it, and a blank password keeps the stored one", async () => {
    const saved = await admin.patch(SETTINGS, smtpForm({ smtpPort: "2525" }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      smtpHost: "127.0.0.1",
      smtpPort: "2525",
      smtpSecure: false,
      smtpUser: SMTP_USER,
      smtpPassSet: true,
      smtpFromEmail: "noreply@example.com",
      smtpFromName: "Lumora Mail",
    });
    const row = await storedSettings();
    expect(row?.smtp_pass_encrypted).toBeTruthy();
    expect(row?.smtp_pass_encrypted).not.toContain(SMTP_PASS);
    expect(t.app.ctx.secrets.open(row?.smtp_pass_encrypted ?? "")).toBe(SMTP_PASS);
    for (const res of [saved, await admin.get(SETTINGS)]) {
      expect(res.body).not.toContain(SMTP_PASS);
      expect(res.body).not.toContain(row?.smtp_pass_encrypted ?? "-");
      expect(res.body).not.toContain('"smtpPass"');
    }

    // The stored password never goes to another server: a new port (or host, or user) needs it typed again.
    const moved = await admin.patch(SETTINGS, smtpForm({ smtpPass: "", smtpPort: String(smtp.port) }));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors.smtpPass).toBe("Enter the SMTP password again: the server, port or username changed.");
    expect((await storedSettings())?.smtp_port).toBe("2525");
    const movedTest = await admin.post(SMTP_TEST, smtpForm({ smtpPass: "", smtpHost: "localhost", smtpPort: "2525" }));
    expect(movedTest.statusCode).toBe(400);

    // Blank keeps it while the server stays; the other fields change.
    const kept = await admin.patch(SETTINGS, smtpForm({ smtpPass: "", smtpPort: "2525", smtpFromName: "" }));
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ smtpPassSet: true, smtpPort: "2525", smtpFromName: null });
    expect((await storedSettings())?.smtp_pass_encrypted).toBe(row?.smtp_pass_encrypted);
    expect((await admin.patch(SETTINGS, smtpForm({ smtpPort: String(smtp.port) }))).statusCode).toBe(200);

    // A new one replaces it (sealed again).
    const replaced = await admin.patch(SETTINGS, { smtpPass: "another-secret" });
    expect(replaced.statusCode).toBe(200);
    const after = await storedSettings();
    expect(after?.smtp_pass_encrypted).not.toBe(row?.smtp_pass_encrypted);
    expect(t.app.ctx.secrets.open(after?.smtp_pass_encrypted ?? "")).toBe("another-secret");
    await admin.patch(SETTINGS, { smtpPass: SMTP_PASS });
  });
});

describe("SMTP test (POST /api/admin/smtp-test)", () => {
  it("connects and logs in to a real SMTP server", async () => {
    const res = await admin.post(SMTP_TEST, smtpForm());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, sent: false });
  });

  it("with a test recipient, sends a real message that arrives", async () => {
    const before = smtp.messages.length;
    const res = await admin.post(SMTP_TEST, smtpForm({ testRecipient: "ops@example.com" }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, sent: true });
    expect(smtp.messages).toHaveLength(before + 1);
    const mail = smtp.messages.at(-1)?.parsed;
    expect(mail?.subject).toBe("SMTP test from Lumora");
    expect(mail?.from?.value[0]).toMatchObject({ address: "noreply@example.com", name: "Lumora Mail" });
    const to = mail?.to as { value: { address: string }[] } | undefined;
    expect(to?.value[0]?.address).toBe("ops@example.com");
  });

  it("a blank password means the stored one", async () => {
    expect((await storedSettings())?.smtp_pass_encrypted).toBeTruthy();
    const res = await admin.post(SMTP_TEST, smtpForm({ smtpPass: "" }));
    expect(res.statusCode).toBe(200);
  });

  it("says the login failed when the server refuses the credentials (400)", async () => {
    const res = await admin.post(SMTP_TEST, smtpForm({ smtpPass: "wrong-password" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/authentication failed/i);
    expect(res.body).not.toContain("wrong-password");
  });

  it("says the connection was refused on a closed port (422: the settings typed do not work)", async () => {
    const port = await closedPort();
    const res = await admin.post(SMTP_TEST, smtpForm({ smtpPort: String(port) }));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/connection refused/i);
    expect(res.json().message).toContain(String(port));
  });

  it("checks the fields with the same rules (400) and never a 5xx on odd bodies", async () => {
    const invalid = await admin.post(SMTP_TEST, smtpForm({ testRecipient: "nope" }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.testRecipient).toBe("Enter a valid email");
    expect((await admin.post(SMTP_TEST, smtpForm({ smtpHost: "" }))).json().errors.smtpHost).toBe("SMTP host is required");
    expect((await admin.post(SMTP_TEST, smtpForm({ smtpUser: "" }))).json().errors.smtpUser).toBe("SMTP username is required");
    for (const body of [
      null,
      [],
      "text",
      42,
      { smtpHost: { $ne: 1 } },
      { ...smtpForm(), smtpSecure: "yes" },
      { ...smtpForm(), smtpPort: -1 },
    ]) {
      const res = await admin.request({
        method: "POST",
        url: SMTP_TEST,
        payload: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
  });
});

describe("email templates", () => {
  it("creates, lists, updates and deletes a template", async () => {
    const created = await createTemplate({ name: "Weekly Digest", slug: "weekly-digest" });
    expect(created).toMatchObject({ slug: "weekly-digest", isProductEmail: false, variables: ["name", "platformName"] });
    const list = (await admin.get(TEMPLATES)).json() as { slug: string }[];
    expect(list.map((x) => x.slug)).toContain("weekly-digest");

    const updated = await admin.patch(`${TEMPLATES}/${created.id}`, { subject: "New {{course}}", description: "" });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: "Weekly Digest", subject: "New {{course}}", description: null });
    expect(updated.json().variables).toEqual(["course", "name"]);

    expect((await admin.request({ method: "DELETE", url: `${TEMPLATES}/${created.id}` })).statusCode).toBe(204);
    expect((await admin.request({ method: "DELETE", url: `${TEMPLATES}/${created.id}` })).statusCode).toBe(404);
    expect((await admin.patch(`${TEMPLATES}/${created.id}`, { name: "Gone" })).statusCode).toBe(404);
  });

  it("refuses each rule with the product's message, on create and on update", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "" }, "name", "Template name is required"],
      [{ name: "  " }, "name", "Template name is required"],
      [{ slug: "" }, "slug", "Template slug is required"],
      [{ slug: "Has Caps" }, "slug", "Slug must be lowercase letters, numbers, and hyphens only"],
      [{ slug: "under_score" }, "slug", "Slug must be lowercase letters, numbers, and hyphens only"],
      [{ subject: "" }, "subject", "Email subject is required"],
      [{ textContent: "" }, "textContent", "Plain text content is required"],
      [{ textContent: " \n " }, "textContent", "Plain text content is required"],
      [{ htmlContent: "" }, "htmlContent", "HTML content is required"],
    ];
    const existing = await createTemplate();
    for (const [over, field, message] of cases) {
      const created = await admin.post(TEMPLATES, template(over));
      expect({ over, status: created.statusCode, message: created.json().errors?.[field] }).toEqual({ over, status: 400, message });
      const updated = await admin.patch(`${TEMPLATES}/${existing.id}`, over);
      expect({ over, status: updated.statusCode, message: updated.json().errors?.[field] }).toEqual({ over, status: 400, message });
    }
    // Missing fields on create carry the same messages.
    const empty = await admin.post(TEMPLATES, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toMatchObject({
      name: "Template name is required",
      slug: "Template slug is required",
      subject: "Email subject is required",
      textContent: "Plain text content is required",
      htmlContent: "HTML content is required",
    });
    // The description is optional; allowed values pass.
    const ok = await admin.post(TEMPLATES, template({ description: undefined, slug: "digits-123-ok" }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().description).toBeNull();
  });

  it("answers 409 on a duplicate slug, on create and on update", async () => {
    const a = await createTemplate();
    const b = await createTemplate();
    const dup = await admin.post(TEMPLATES, template({ slug: a.slug }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ message: TEMPLATE_SLUG_TAKEN, errors: { slug: TEMPLATE_SLUG_TAKEN } });
    const renamed = await admin.patch(`${TEMPLATES}/${b.id}`, { slug: a.slug });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe(TEMPLATE_SLUG_TAKEN);
    // Its own slug again is fine.
    expect((await admin.patch(`${TEMPLATES}/${b.id}`, { slug: b.slug })).statusCode).toBe(200);
  });

  it("keeps the product emails: editable, never deleted (409), slug fixed", async () => {
    for (const slug of ["welcome", "password-changed", "password-reset", "early-access-receipt"]) {
      const row = await productTemplate(slug);
      const listed = ((await admin.get(TEMPLATES)).json() as { id: number; isProductEmail: boolean }[]).find((x) => x.id === row.id);
      expect(listed?.isProductEmail).toBe(true);
      const removed = await admin.request({ method: "DELETE", url: `${TEMPLATES}/${row.id}` });
      expect(removed.statusCode).toBe(409);
      expect(removed.json().message).toContain("cannot be deleted");
      const edited = await admin.patch(`${TEMPLATES}/${row.id}`, { subject: "Edited {{name}}", slug });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().subject).toBe("Edited {{name}}");
      const reslug = await admin.patch(`${TEMPLATES}/${row.id}`, { slug: `${slug}-2` });
      expect(reslug.statusCode).toBe(409);
      expect(reslug.json().message).toBe(PRODUCT_TEMPLATE_SLUG_FIXED);
    }
  });

  it("refuses bad ids and odd bodies with 4xx, never a 5xx", async () => {
    for (const id of ["0", "-1", "abc", "1.5", "99999999999", "2147483648"]) {
      const res = await admin.patch(`${TEMPLATES}/${id}`, { name: "X" });
      expect({ id, status: res.statusCode }).toEqual({ id, status: 400 });
    }
    expect((await admin.patch(`${TEMPLATES}/2147483647`, { name: "X" })).statusCode).toBe(404);
    for (const body of [null, [], "text", 42, { name: ["a"] }, { ...template(), textContent: { a: 1 } }, { ...template(), slug: 5 }]) {
      const res = await admin.request({
        method: "POST",
        url: TEMPLATES,
        payload: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
    const long = await admin.post(TEMPLATES, template({ name: "n".repeat(101) }));
    expect(long.statusCode).toBe(400);
  });
});

describe("template test (POST /api/admin/email-templates/:id/test)", () => {
  let tpl: { id: number; slug: string };
  beforeEach(async () => {
    tpl = await createTemplate({ subject: "Hi {{name}} at {{platformName}}" });
  });

  it("checks the recipient and that the test data is a JSON object", async () => {
    const bad = await admin.post(`${TEMPLATES}/${tpl.id}/test`, { recipientEmail: "nope", testData: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.recipientEmail).toBe(RECIPIENT_INVALID);
    for (const testData of [[], "{}", 5, null]) {
      const res = await admin.post(`${TEMPLATES}/${tpl.id}/test`, { recipientEmail: "a@example.com", testData });
      expect({ testData, status: res.statusCode, message: res.json().errors?.testData }).toEqual({
        testData,
        status: 400,
        message: TEST_DATA_NOT_OBJECT,
      });
    }
    expect((await admin.post(`${TEMPLATES}/2147483647/test`, { recipientEmail: "a@example.com", testData: {} })).statusCode).toBe(404);
  });

  it("renders with the test data through the outbox, escaping the variables in the HTML part", async () => {
    const evil = '<script>alert("x")</script>';
    const res = await admin.post(`${TEMPLATES}/${tpl.id}/test`, {
      recipientEmail: "tester@example.com",
      testData: { name: evil, platformName: "Spoofed" },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; isTestAccount: boolean; previewUrl: string };
    // SMTP is configured by the earlier tests (host and from email): a real send, and where to follow it.
    expect(body.isTestAccount).toBe(false);
    expect(body.message).toBe(
      "The test email to tester@example.com is queued for your SMTP server. The Outbox tab shows when it is delivered, or why not.",
    );
    const id = Number(body.previewUrl.match(/^\/admin\/email-preview\/(\d+)$/)?.[1]);
    const row = await outboxRow(id);
    expect(row).toMatchObject({ to_address: "tester@example.com", template_slug: tpl.slug });
    expect(row?.subject).toBe(`Hi ${evil} at Lumora`);
    expect(row?.text_body).toContain(evil);
    expect(row?.html_body).not.toContain("<script>");
    expect(row?.html_body).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("says the email is in the test inbox when SMTP is not configured", async () => {
    await t.database.db.execute(sql`update platform_settings set smtp_host = null`);
    try {
      const res = await admin.post(`${TEMPLATES}/${tpl.id}/test`, { recipientEmail: "tester@example.com" });
      expect(res.statusCode).toBe(200);
      expect(res.json().isTestAccount).toBe(true);
      expect(res.json().message).toMatch(/test inbox/);
      expect(res.json().previewUrl).toMatch(/^\/admin\/email-preview\/\d+$/);
    } finally {
      await t.database.db.execute(sql`update platform_settings set smtp_host = '127.0.0.1'`);
    }
  });
});
