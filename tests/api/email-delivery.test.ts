// What reaches a real SMTP server (smtp-server + mailparser on 127.0.0.1): the SMTP test message, a template
// test with its variables escaped in the HTML part, and the welcome and reset emails the product sends.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { buildTestApp, type CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let smtp: SmtpFake;
let admin: CookieClient;

beforeAll(async () => {
  smtp = await startSmtpFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  const saved = await admin.patch("/api/admin/platform-settings", {
    smtpHost: smtp.host,
    smtpPort: String(smtp.port),
    smtpSecure: false,
    smtpUser: FAKE_SMTP_USER,
    smtpPass: FAKE_SMTP_PASS,
    smtpFromEmail: "noreply@lumora.test",
    smtpFromName: "Lumora",
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const arrivedFor = async (to: string) => {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = smtp.messages.find((m) => m.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no email for ${to}`);
};

describe("email delivery through SMTP", () => {
  it("the SMTP test connects with the stored password and sends to the test recipient", async () => {
    const res = await admin.post("/api/admin/smtp-test", {
      smtpHost: smtp.host,
      smtpPort: String(smtp.port),
      smtpSecure: false,
      smtpUser: FAKE_SMTP_USER,
      smtpPass: "",
      smtpFromEmail: "noreply@lumora.test",
      smtpFromName: "Lumora",
      testRecipient: "smtp-test@example.com",
    });
    expect(res.statusCode).toBe(200);
    const mail = await arrivedFor("smtp-test@example.com");
    expect(mail.user).toBe(FAKE_SMTP_USER);
  });

  it("a template test arrives once, its variables escaped in the HTML part and not a test-inbox copy", async () => {
    const created = await admin.post("/api/admin/email-templates", {
      name: "Shout",
      slug: "shout",
      subject: "Hello {{name}} from {{platformName}}",
      description: "",
      textContent: "Hi {{name}}",
      htmlContent: "<p>Hi {{name}}</p>",
    });
    expect(created.statusCode).toBe(201);
    const res = await admin.post(`/api/admin/email-templates/${created.json().id}/test`, {
      recipientEmail: "template-test@example.com",
      testData: { name: "<script>alert(1)</script>" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().isTestAccount).toBe(false);
    const mail = await arrivedFor("template-test@example.com");
    expect(mail.subject).toBe("Hello <script>alert(1)</script> from Lumora");
    expect(mail.text.trim()).toBe("Hi <script>alert(1)</script>");
    expect(mail.html).toContain("<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(mail.html).not.toContain("<script>");
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages.filter((m) => m.to.includes("template-test@example.com"))).toHaveLength(1);
  });

  it("the welcome email after registration, and the reset email with a working link", async () => {
    const account = newAccount();
    const { client, user } = await registerAndSignIn(t.app, account);
    // Registration signs the new account in.
    expect((await client.get("/api/user")).json()).toMatchObject({ id: user.id, username: account.username, email: account.email });
    const welcome = await arrivedFor(account.email);
    expect(welcome.subject).toMatch(new RegExp(`^Welcome to .+, ${account.name}!$`));
    expect(welcome.to).toEqual([account.email]);
    expect(welcome.text).toContain(account.username);

    const asked = await t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email: account.email } });
    expect(asked.statusCode).toBe(200);
    const deadline = Date.now() + 15_000;
    let link: string | undefined;
    while (!link && Date.now() < deadline) {
      link = smtp.messages
        .filter((m) => m.to.includes(account.email))
        .map((m) => /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1])
        .find(Boolean);
      if (!link) await new Promise((r) => setTimeout(r, 50));
    }
    expect(link).toBeTruthy();
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token: link, password: "N3w!Password", confirmPassword: "N3w!Password" },
    });
    expect(reset.statusCode).toBe(200);
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: account.username, password: "N3w!Password" },
    });
    expect(signIn.statusCode).toBe(200);

    // Once sent, the outbox keeps the reset email without its link (a dump or the outbox page cannot hand it out).
    const until = Date.now() + 10_000;
    let rows: { status: string; text_body: string; html_body: string }[] = [];
    while (Date.now() < until) {
      rows = (
        await t.database.db.execute(
          sql`select status, text_body, html_body from email_outbox where to_address = ${account.email} and template_slug = 'password-reset'`,
        )
      ).rows as typeof rows;
      if (rows.length > 0 && rows.every((r) => r.status === "sent")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.length).toBe(1);
    expect(rows[0]?.status).toBe("sent");
    expect(rows[0]?.text_body).not.toContain(String(link));
    expect(rows[0]?.html_body).not.toContain(String(link));
    expect(rows[0]?.text_body).toContain("/reset-password?token=(removed once sent)");
  });

  it("a password change ends every reset link still out", async () => {
    const account = newAccount();
    const client = (await registerAndSignIn(t.app, account)).client;
    await t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email: account.email } });
    const deadline = Date.now() + 15_000;
    let link: string | undefined;
    while (!link && Date.now() < deadline) {
      link = smtp.messages
        .filter((m) => m.to.includes(account.email))
        .map((m) => /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1])
        .find(Boolean);
      if (!link) await new Promise((r) => setTimeout(r, 50));
    }
    expect(link).toBeTruthy();
    const changed = await client.patch("/api/user/password", {
      currentPassword: account.password,
      newPassword: "Chang3d!pass",
      confirmPassword: "Chang3d!pass",
    });
    expect(changed.statusCode).toBe(200);
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token: link, password: "N3w!Password", confirmPassword: "N3w!Password" },
    });
    expect(reset.statusCode).toBe(400);
  });
});
