// The emails the product sends: welcome after registration, password-changed after a change, and the
// reset link, stored in the outbox in the transaction of the change and delivered to a real SMTP peer.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, emailTemplates } from "../../src/server/db/schema/index.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { passwordResetApi } from "../../src/shared/contracts/password-reset.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { sendMailThrough } from "../helpers/smtp-setup.js";

const ORIGIN = "https://learn.example.org";
let t: TestApp;
let smtp: SmtpFake;
let admin: CookieClient;

async function mails(to: string, template: string) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.templateSlug, template)));
}

/** The first message the SMTP peer received for `to` whose text matches, waiting up to 10 s. */
async function arrived(to: string, text: RegExp) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = smtp.messages.find((m) => m.to.includes(to) && text.test(m.text));
    if (found || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  smtp = await startSmtpFake();
  t = await buildTestApp({ env: { PUBLIC_ORIGIN: ORIGIN } });
  admin = (await registerAndSignIn(t.app)).client;
  await sendMailThrough(admin, smtp, { email: "noreply@learn.example.org", name: "Learn" });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe("welcome", () => {
  it("is queued after registration with the sign-in link on PUBLIC_ORIGIN, and arrives", async () => {
    const { body } = await registerAndSignIn(t.app, { name: "Wendy Welcome" });
    const [mail, ...more] = await mails(body.email, "welcome");
    expect(more).toHaveLength(0);
    expect(mail?.textBody).toContain("Wendy Welcome");
    expect(mail?.textBody).toContain(body.username);
    expect(mail?.textBody).toContain(`${ORIGIN}/login`);
    const received = await arrived(body.email, /\/login/);
    expect(received?.text).toContain(`${ORIGIN}/login`);
    expect(received?.text).toContain("Wendy Welcome");
  });

  it("is not queued for a refused registration", async () => {
    const taken = await registerAndSignIn(t.app);
    const again = await callApp(t.app, authApi.register, { body: { ...newAccount(), email: taken.body.email, planType: "free" } });
    expect(again.status).toBe(409);
    expect(await mails(taken.body.email, "welcome")).toHaveLength(1);
  });

  it("never stops a registration: without its template the account is still created", async () => {
    const [template] = await t.database.db.select().from(emailTemplates).where(eq(emailTemplates.slug, "welcome"));
    if (!template) throw new Error("the welcome template is not seeded");
    await t.database.db.delete(emailTemplates).where(eq(emailTemplates.id, template.id));
    try {
      const body = { ...newAccount(), planType: "free" as const };
      const res = await callApp(t.app, authApi.register, { body });
      expect(res.status).toBe(201);
      expect(await mails(body.email, "welcome")).toHaveLength(0);
    } finally {
      await t.database.db.insert(emailTemplates).values(template);
    }
  });
});

describe("password-changed", () => {
  it("is queued after PATCH /api/user/password, and not after a refused change", async () => {
    const { client, body } = await registerAndSignIn(t.app, { name: "Pat Changer" });
    const changePassword = (currentPassword: string) =>
      client.call(userApi.changePassword, { body: { currentPassword, newPassword: "N3w!password", confirmPassword: "N3w!password" } });
    const wrong = await changePassword("Wr0ng!pass");
    expect(wrong.status).toBe(400);
    expect(await mails(body.email, "password-changed")).toHaveLength(0);

    const ok = await changePassword(body.password);
    expect(ok.status).toBe(200);
    const changed = await mails(body.email, "password-changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]?.textBody).toContain("Pat Changer");
  });
});

describe("password-reset", () => {
  it("arrives at the SMTP peer with a link on PUBLIC_ORIGIN, whatever Host the request named", async () => {
    const { body } = await registerAndSignIn(t.app);
    const res = await callApp(t.app, passwordResetApi.forgot, { body: { email: body.email } }, { headers: { host: "attacker.example" } });
    expect(res.status).toBe(200);
    const received = await arrived(body.email, /reset-password/);
    expect(received?.text).toMatch(new RegExp(`${ORIGIN.replace(/\./g, "\\.")}/reset-password\\?token=[A-Za-z0-9_-]{43}`));
    expect(received?.text).not.toContain("attacker.example");
    expect(received?.html).not.toContain("attacker.example");
  });
});
