import type { SmtpTestInput, SmtpTestResult } from "../../../shared/contracts/email.js";
import { SMTP_PASS_REQUIRED } from "../../../shared/contracts/platform-settings.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Who } from "../../lib/who.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { assertStoredPasswordStaysHome } from "../platform-settings/stored-smtp-password.js";
import { createTransport, describeSmtpError, fromAddress, SMTP_TIMEOUT_MS, SmtpPasswordUnreadable, smtpPortNumber } from "./transport.js";

/** However the server behaves, the test answers within this (each SMTP step also has its own timeout). */
const HARD_DEADLINE_MS = 2 * SMTP_TIMEOUT_MS + 5_000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("Timeout"), { code: "ETIMEDOUT" })), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function isAuthFailure(error: unknown): boolean {
  const e = error as { code?: string; responseCode?: number } | undefined;
  return e?.code === "EAUTH" || e?.responseCode === 535 || e?.responseCode === 534;
}

/**
 * POST /api/admin/smtp-test: connects to the SMTP server as typed in the form (a blank password means the
 * stored one), logs in (`verify()`), and with a recipient sends one message directly, not through the
 * outbox, so the admin learns at once whether mail goes out. A failure says why: 400 when the login is refused,
 * 422 when the server typed cannot be reached or fails (the settings sent do not work: never a 5xx, issue 14).
 */
export async function testSmtp(options: { db: Db; who: Who; secrets: SecretBox; input: SmtpTestInput }): Promise<SmtpTestResult> {
  const { input } = options;
  const settings = await readPlatformSettings(options.db);
  let password = input.smtpPass;
  if (!password) {
    if (!settings.smtpPassEncrypted) throw new AppError("BAD_REQUEST", SMTP_PASS_REQUIRED, { errors: { smtpPass: SMTP_PASS_REQUIRED } });
    assertStoredPasswordStaysHome(settings, input);
    try {
      password = options.secrets.open(settings.smtpPassEncrypted);
    } catch {
      throw new AppError("BAD_REQUEST", new SmtpPasswordUnreadable().message, { errors: { smtpPass: SMTP_PASS_REQUIRED } });
    }
  }
  const target = { host: input.smtpHost, port: smtpPortNumber(input.smtpPort) };
  const transport = await createTransport({ ...target, secure: input.smtpSecure, user: input.smtpUser, password });
  const recipient = input.testRecipient || null;
  try {
    await withDeadline(transport.verify(), HARD_DEADLINE_MS);
    if (recipient) {
      await withDeadline(
        transport.sendMail({
          from: fromAddress(input),
          to: recipient,
          subject: `SMTP test from ${settings.platformName}`,
          text: `This is a test email from ${settings.platformName}.\n\nIf you can read it, the SMTP settings work: ${target.host}:${target.port}.`,
        }),
        HARD_DEADLINE_MS,
      );
    }
  } catch (error) {
    // The server refusing the login is about the credentials typed (400); anything else, about the server typed (422).
    const status = isAuthFailure(error) ? "BAD_REQUEST" : "UNPROCESSABLE";
    throw new AppError(status, describeSmtpError(error, target).reason);
  } finally {
    transport.close();
  }
  return {
    success: true,
    sent: !!recipient,
    message: recipient
      ? `Connected to ${target.host}:${target.port} and sent a test email to ${recipient}.`
      : `Connected to ${target.host}:${target.port} and logged in.`,
  };
}
