import { and, ne, or, sql } from "drizzle-orm";
import { EMAIL_TAKEN, USERNAME_TAKEN } from "../../../shared/contracts/fields.js";
import type { DbOrTx } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/db-errors.js";

/** What an account is about to take: a username, an email (null or absent: none), and whose account it is already. */
export interface WantedAccount {
  username?: string;
  email?: string | null;
  /** The account being changed: its own username and email are not "taken". */
  exceptUserId?: number;
}

/**
 * 409 with the field's error when the username or the email, in any case, belongs to another account
 * (decision 004). Every write of an account's username or email asks it first (registration, the paid
 * checkout's account, the checkout's start, the profile, the admin's user form, create-admin), for a clear
 * answer; the unique indexes on lower(username) and lower(email) stay the final guard, and a write that lost
 * to them is answered the same way by `conflictAfterRace`.
 */
export async function assertAccountFree(db: DbOrTx, wanted: WantedAccount): Promise<void> {
  const checks = [
    wanted.username ? sql`lower(${users.username}) = lower(${wanted.username})` : undefined,
    wanted.email ? sql`lower(${users.email}) = lower(${wanted.email})` : undefined,
  ].filter((check) => check !== undefined);
  if (checks.length === 0) return;
  const [taken] = await db
    .select({ username: users.username })
    .from(users)
    .where(and(or(...checks), wanted.exceptUserId ? ne(users.id, wanted.exceptUserId) : undefined))
    .limit(1);
  if (!taken) return;
  if (wanted.username && taken.username.toLowerCase() === wanted.username.toLowerCase())
    throw new AppError("CONFLICT", USERNAME_TAKEN, { errors: { username: USERNAME_TAKEN } });
  throw new AppError("CONFLICT", EMAIL_TAKEN, { errors: { email: EMAIL_TAKEN } });
}

/**
 * A write refused by a unique index (it lost a race with another write of the same name): answered like
 * `assertAccountFree` (409, with the field). Any other error is thrown as it is. `db` must be usable: outside
 * the failed transaction, or a transaction whose savepoint was rolled back.
 */
export async function conflictAfterRace(db: DbOrTx, error: unknown, wanted: WantedAccount): Promise<never> {
  if (!isUniqueViolation(error)) throw error;
  await assertAccountFree(db, wanted);
  throw new AppError("CONFLICT", `${USERNAME_TAKEN} or ${EMAIL_TAKEN.toLowerCase()}`);
}
