import { SMTP_PASS_AGAIN } from "../../../shared/contracts/platform-settings.js";
import { assertStoredSecretStaysHome } from "../../lib/stored-secret.js";

type SmtpTarget = { smtpHost: string | null; smtpPort: string; smtpUser: string | null };

/**
 * The stored SMTP password only ever goes to the server it was saved for (the rule of every stored secret,
 * `lib/stored-secret.ts`): its destination is the host, the port and the username.
 */
export function assertStoredPasswordStaysHome(stored: SmtpTarget, wanted: Partial<SmtpTarget>): void {
  assertStoredSecretStaysHome(
    { host: stored.smtpHost, port: stored.smtpPort, user: stored.smtpUser },
    { host: wanted.smtpHost, port: wanted.smtpPort, user: wanted.smtpUser },
    { field: "smtpPass", message: SMTP_PASS_AGAIN },
  );
}
