import { expect } from "vitest";
import { platformSettingsApi } from "../../src/shared/contracts/platform-settings.js";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake } from "../fakes/smtp-fake.js";
import type { CookieClient } from "./build-test-app.js";

/** As an admin, sends the app's mail through the SMTP stand-in, from this sender. */
export async function sendMailThrough(admin: CookieClient, smtp: SmtpFake, from: { email: string; name: string }): Promise<void> {
  const saved = await admin.call(platformSettingsApi.update, {
    body: {
      smtpHost: smtp.host,
      smtpPort: String(smtp.port),
      smtpSecure: false,
      smtpUser: FAKE_SMTP_USER,
      smtpPass: FAKE_SMTP_PASS,
      smtpFromEmail: from.email,
      smtpFromName: from.name,
    },
  });
  expect(saved.status).toBe(200);
}
