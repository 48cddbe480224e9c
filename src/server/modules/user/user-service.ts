import { eq } from "drizzle-orm";
import type { PasswordChangeInput, ProfileInput } from "../../../shared/contracts/user.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { assertAccountFree, conflictAfterRace } from "../accounts/account-free.js";
import { logActivity } from "../activity/activity-log.js";
import { revokeUserTokens } from "../api-tokens/tokens-service.js";
import { type EmailFailureLog, queuePasswordChanged } from "../email/product-emails.js";
import { forgetResetLinks } from "../password-reset/forget-links.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";

export async function updateProfile(options: { db: Db; sessions: SessionStore; who: Who; input: ProfileInput }): Promise<Who> {
  const { db, input } = options;
  const userId = options.who.id;
  const changes: { name?: string | null; email?: string | null; updatedAt: Date } = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name === "" ? null : input.name;
  if (input.email !== undefined) {
    // Lower-cased by the profile's email field; empty is no email.
    changes.email = input.email || null;
    if (changes.email) await assertAccountFree(db, { email: changes.email, exceptUserId: userId });
  }
  const [updated] = await db
    .update(users)
    .set(changes)
    .where(eq(users.id, userId))
    .returning(sessionUserColumns)
    .catch((error: unknown) => conflictAfterRace(db, error, { email: changes.email, exceptUserId: userId }));
  if (changes.email !== undefined) await forgetResetLinks(db, userId);
  if (!updated) throw new AppError("NOT_FOUND", "User not found");
  await userChanged(options.sessions, userId);
  return updated;
}

const PASSWORD_TRIES = 5;
const PASSWORD_WINDOW_MS = 15 * 60_000;

/**
 * Password change: a stolen session must not become a way to guess the password, so attempts are counted
 * per user before the current password is checked (one atomic INCR or upsert): past 5 in 15 minutes the
 * attempt is refused unchecked, so parallel guesses check at most 5. A success clears the count, ends the
 * user's other sessions and, unless the person keeps them (`revokeTokens: false`), their API tokens (decision 056), and
 * is logged.
 */
export async function changePassword(options: {
  db: Db;
  sessions: SessionStore;
  counters: CounterStore;
  who: Who;
  sessionId: string | null;
  meta: RequestMeta;
  input: PasswordChangeInput;
  log?: EmailFailureLog;
}): Promise<void> {
  const { db, counters, who } = options;
  const key = `password-change:${who.id}`;
  const tries = await counters.hit(key, PASSWORD_WINDOW_MS);
  if (tries.count > PASSWORD_TRIES) {
    const minutes = Math.max(1, Math.ceil(tries.resetInMs / 60_000));
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many wrong current passwords. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      {
        retryAfterSeconds: Math.max(1, Math.ceil(tries.resetInMs / 1000)),
      },
    );
  }
  await storeNewPassword(db, who.id, options.input, options.log);
  await counters.reset(key);
  await options.sessions.endUserSessions(who.id, "password_changed", options.sessionId ?? undefined);
  await logActivity(db, { userId: who.id, action: "password_change", ...options.meta });
}

/** Checks the current password, stores the new hash and queues `password-changed` in the same transaction. */
async function storeNewPassword(db: Db, userId: number, input: PasswordChangeInput, log?: EmailFailureLog): Promise<void> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, name: users.name, username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "Current password is incorrect", { errors: { currentPassword: "Current password is incorrect" } });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await forgetResetLinks(tx, userId);
    if (input.revokeTokens) await revokeUserTokens(tx, userId);
    await queuePasswordChanged({ db: tx, user: row, log });
  });
}
