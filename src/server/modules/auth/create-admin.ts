import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword } from "../../lib/passwords.js";
import { assertAccountFree, conflictAfterRace } from "../accounts/account-free.js";

/** Checked by the script with the registration's fields (`shared/contracts/fields.ts`): the email lower-cased. */
export interface CreateAdminInput {
  username: string;
  password?: string;
  email?: string;
  name?: string;
}

/** Promotes an existing account to admin (optionally resetting its password) or creates a new admin. */
export async function createOrPromoteAdmin(options: { db: Db; input: CreateAdminInput }): Promise<{ id: number; created: boolean }> {
  const { db, input } = options;
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${input.username})`).limit(1);
  if (existing) {
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    await db
      .update(users)
      .set({ role: "admin", updatedAt: new Date(), ...(passwordHash ? { passwordHash } : {}) })
      .where(eq(users.id, existing.id));
    return { id: existing.id, created: false };
  }
  if (!input.password) throw new AppError("BAD_REQUEST", "A new admin needs a password (--password).");
  const wanted = { username: input.username, email: input.email ?? null };
  await assertAccountFree(db, wanted);
  const passwordHash = await hashPassword(input.password);
  const [created] = await db
    .insert(users)
    .values({ username: input.username, name: input.name ?? null, email: wanted.email, passwordHash, role: "admin" })
    .returning({ id: users.id })
    .catch((error: unknown) => conflictAfterRace(db, error, wanted));
  if (!created) throw new Error("insert returned no row");
  await db.insert(userSettings).values({ userId: created.id }).onConflictDoNothing();
  return { id: created.id, created: true };
}
