import type { Db } from "../../db/client.js";
import { PRODUCT_EMAILS } from "./product-email-slugs.js";
import { queueEmail } from "./queue.js";

/** Where a failure that must not stop the change it follows is reported (the app's logger). */
export type EmailFailureLog = (message: string, error: unknown) => void;

/**
 * The origin of links in emails: PUBLIC_ORIGIN when set, else http://localhost:PORT. Never the request's
 * Host or Origin header, which anyone can set: a reset link pointing at an attacker's site would hand them
 * the token.
 */
export function publicOrigin(config: { PUBLIC_ORIGIN?: string | undefined; PORT: number }): string {
  if (config.PUBLIC_ORIGIN) return config.PUBLIC_ORIGIN.replace(/\/+$/, "");
  return `http://localhost:${config.PORT}`;
}

/**
 * Queues a product email inside the caller's transaction (so it goes only if the change commits), in a
 * savepoint of its own: a missing template or a failed insert is logged and rolled back alone, and never
 * undoes the registration or password change it follows.
 */
export async function queueProductEmail(options: {
  db: Db;
  to: string | null;
  template: (typeof PRODUCT_EMAILS)[keyof typeof PRODUCT_EMAILS];
  data: Record<string, string>;
  log?: EmailFailureLog;
}): Promise<boolean> {
  const { to } = options;
  if (!to) return false;
  try {
    await options.db.transaction(async (savepoint) => {
      await queueEmail({ db: savepoint, to, template: options.template, data: options.data });
    });
    return true;
  } catch (error) {
    options.log?.(`queueing the "${options.template}" email failed`, error);
    return false;
  }
}

/** `password-changed` (variables: name), after a change or a reset. */
export function queuePasswordChanged(options: {
  db: Db;
  user: { email: string | null; name: string | null; username: string };
  log?: EmailFailureLog;
}): Promise<boolean> {
  const { user } = options;
  return queueProductEmail({
    db: options.db,
    to: user.email,
    template: PRODUCT_EMAILS.passwordChanged,
    data: { name: user.name ?? user.username },
    log: options.log,
  });
}
