import { and, asc, eq } from "drizzle-orm";
import { ADMIN_USER_REFUSALS } from "../../../shared/contracts/admin-users.js";
import { ADMINS_ONLY } from "../../../shared/contracts/errors.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { type AdminUserRow, adminUserColumns } from "./admin-user-view.js";

export const USER_NOT_FOUND = "User not found";

export type Removal = "delete" | "disable" | "demote";

const SELF: Record<Removal, string> = {
  delete: ADMIN_USER_REFUSALS.deleteSelf,
  disable: ADMIN_USER_REFUSALS.disableSelf,
  demote: ADMIN_USER_REFUSALS.demoteSelf,
};
const LAST: Record<Removal, string> = {
  delete: ADMIN_USER_REFUSALS.deleteLastAdmin,
  disable: ADMIN_USER_REFUSALS.disableLastAdmin,
  demote: ADMIN_USER_REFUSALS.demoteLastAdmin,
};

/** An admin never deletes, disables or demotes their own account (checked before anything is read). */
export function assertNotSelf(who: Who, userId: number, removal: Removal): void {
  if (who.id === userId) throw new AppError("FORBIDDEN", SELF[removal]);
}

/**
 * Locks the rows of the active admins, in id order (so parallel requests queue instead of deadlocking),
 * then the target. A request that waited reads the admins again as they are after the other one committed,
 * so two parallel demotions of the last two admins cannot both pass.
 */
export async function lockForAdminRemoval(tx: Db, userId: number): Promise<{ admins: number[]; target: AdminUserRow | undefined }> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.status, "active")))
    .orderBy(asc(users.id))
    .for("update");
  const [target] = await tx.select(adminUserColumns).from(users).where(eq(users.id, userId)).for("update");
  return { admins: admins.map((row) => row.id), target };
}

/**
 * With the locks held: the change may not leave no active admin, and the acting admin must still be
 * one (a session read a moment before a demotion could otherwise act once more).
 */
export function assertAdminRemains(options: { who: Who; admins: number[]; target: AdminUserRow; removal: Removal }): void {
  const { who, admins, target, removal } = options;
  const removesAnAdmin = target.role === "admin" && target.status === "active";
  if (removesAnAdmin && admins.filter((id) => id !== target.id).length === 0) throw new AppError("CONFLICT", LAST[removal]);
  if (!admins.includes(who.id)) throw new AppError("FORBIDDEN", ADMINS_ONLY);
}
