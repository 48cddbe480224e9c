import { AppError } from "../../lib/app-error.js";

export const SMTP_PASS_AGAIN = "Enter the SMTP password again: the server, port or username changed.";

type SmtpTarget = { smtpHost: string | null; smtpPort: string; smtpUser: string | null };

/**
 * The stored SMTP password only ever goes to the server it was saved for: a blank password means "the
 * stored one" only while host, port and username stay as saved. Otherwise any admin (or a stolen admin
 * session) could send it to a server of their own, and it would leave the database in clear.
 */
export function assertStoredPasswordStaysHome(stored: SmtpTarget, wanted: Partial<SmtpTarget>): void {
  const same = (a: string | null | undefined, b: string | null | undefined) =>
    (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();
  const moved =
    (wanted.smtpHost !== undefined && !same(wanted.smtpHost, stored.smtpHost)) ||
    (wanted.smtpPort !== undefined && !same(wanted.smtpPort, stored.smtpPort)) ||
    (wanted.smtpUser !== undefined && !same(wanted.smtpUser, stored.smtpUser));
  if (moved) throw new AppError("BAD_REQUEST", SMTP_PASS_AGAIN, { errors: { smtpPass: SMTP_PASS_AGAIN } });
}
