// What reaches a real SMTP server (smtp-server + mailparser on 127.0.0.1): the SMTP test message, a template
// test with its variables escaped in the HTML part, and the welcome and reset emails the product sends.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authApi } from "../../src/shared/contracts/auth.js";
import { emailApi } from "../../src/shared/contracts/email.js";
import { passwordResetApi } from "../../src/shared/contracts/password-reset.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { sendMailThrough } from "../helpers/smtp-setup.js";

let t: TestApp;
let smtp: SmtpFake;
let admin: CookieClient;

beforeAll(async () => {
  smtp = await startSmtpFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  await sendMailThrough(admin, smtp, { email: "noreply@lumora.test", name: "Lumora" });
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
const forgot = (email: string) => callApp(t.app, passwordResetApi.forgot, { body: { email } });
const resetWith = (token: string) =>
  callApp(t.app, passwordResetApi.reset, { body: { token, password: "N3w!Password", confirmPassword: "N3w!Password" } });

describe("email delivery through SMTP", () => {
  it("the SMTP test connects with the stored password and sends to the test recipient", async () => {
    const res = await admin.call(emailApi.smtpTest, {
      body: {
        smtpHost: smtp.host,
        smtpPort: String(smtp.port),
        smtpSecure: false,
        smtpUser: FAKE_SMTP_USER,
        smtpPass: "",
        smtpFromEmail: "noreply@lumora.test",
        smtpFromName: "Lumora",
        testRecipient: "smtp-test@example.com",
      },
    });
    expect(res.status).toBe(200);
    const mail = await arrivedFor("smtp-test@example.com");
    expect(mail.user).toBe(FAKE_SMTP_USER);
  });

  it("a template test arrives once, its variables escaped in the HTML part and not a test-inbox copy", async () => {
    const created = await admin.call(emailApi.createTemplate, {
      body: {
        name: "Shout",
        slug: "shout",
        subject: "Hello {{name}} from {{platformName}}",
        description: "",
        textContent: "Hi {{name}}",
        htmlContent: "<p>Hi {{name}}</p>",
      },
    });
    expect(created.status).toBe(201);
    const res = await admin.call(emailApi.testTemplate, {
      params: { id: created.data.id },
      body: { recipientEmail: "template-test@example.com", testData: { name: "<script>alert(1)</script>" } },
    });
    expect(res.status).toBe(200);
    expect(res.data.isTestAccount).toBe(false);
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
    expect(await client.ok(userApi.me, {})).toMatchObject({ id: user.id, username: account.username, email: account.email });
    const welcome = await arrivedFor(account.email);
    expect(welcome.subject).toMatch(new RegExp(`^Welcome to .+, ${account.name}!$`));
    expect(welcome.to).toEqual([account.email]);
    expect(welcome.text).toContain(account.username);

    const asked = await forgot(account.email);
    expect(asked.status).toBe(200);
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
    if (!link) throw new Error("no reset link");
    const reset = await resetWith(link);
    expect(reset.status).toBe(200);
    const signIn = await callApp(t.app, authApi.login, { body: { username: account.username, password: "N3w!Password" } });
    expect(signIn.status).toBe(200);

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
    await forgot(account.email);
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
    if (!link) throw new Error("no reset link");
    const changed = await client.call(userApi.changePassword, {
      body: { currentPassword: account.password, newPassword: "Chang3d!pass", confirmPassword: "Chang3d!pass" },
    });
    expect(changed.status).toBe(200);
    const reset = await resetWith(link);
    expect(reset.status).toBe(400);
  });
});
