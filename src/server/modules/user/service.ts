import { and, eq, ne, sql } from "drizzle-orm";
import type { PasswordChangeBody, ProfileBody } from "../../../shared/contracts/user.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import type { Who } from "../../lib/who.js";
import { sessionUserColumns } from "./public-user.js";

export async function updateProfile(options: { db: Db; userId: number; input: ProfileBody }): Promise<Who> {
  const { db, userId, input } = options;
  const changes: { name?: string | null; email?: string | null; updatedAt: Date } = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name === "" ? null : input.name;
  if (input.email !== undefined) {
    const email = input.email === "" ? null : input.email.toLowerCase();
    if (email) {
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, ne(users.id, userId)))
        .limit(1);
      if (taken)
        throw new AppError("CONFLICT", "An account with this email already exists", {
          errors: { email: "An account with this email already exists" },
        });
    }
    changes.email = email;
  }
  const [updated] = await db.update(users).set(changes).where(eq(users.id, userId)).returning(sessionUserColumns);
  if (!updated) throw new AppError("NOT_FOUND", "User not found");
  return updated;
}

/** Checks the current password, stores the new hash. The caller revokes the other sessions. */
export async function changePassword(options: { db: Db; userId: number; input: PasswordChangeBody }): Promise<void> {
  const { db, userId, input } = options;
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "Current password is incorrect", { errors: { currentPassword: "Current password is incorrect" } });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}
