import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { passwordResetTokens } from "../../db/schema/index.js";

/**
 * Every reset link of the account that was not used yet stops working: after any password change (by the
 * user, a reset, or an admin) and after the email address changes (a link sent to the old address must not
 * outlive the change).
 */
export async function forgetResetLinks(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
