import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { sessionUserColumns } from "../user/public-user.js";

/** An admin changes a user's plan (issue 5); later fields of the admin users page join here. */
export async function updateUserAsAdmin(options: { db: Db; userId: number; input: { planType?: "free" | "earlyAccess" } }): Promise<Who> {
  const { db, userId, input } = options;
  const [row] = await db
    .update(users)
    .set({ ...(input.planType ? { planType: input.planType } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning(sessionUserColumns);
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  return row;
}
