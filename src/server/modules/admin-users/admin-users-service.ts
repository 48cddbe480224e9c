import { and, eq } from "drizzle-orm";
import type { AdminUser, AdminUserPatch, CreateAdminUserInput } from "../../../shared/contracts/admin-users.js";
import type { Db } from "../../db/client.js";
import { knowledgeFiles, messages, userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { assertAccountFree, conflictAfterRace } from "../accounts/account-free.js";
import { keepDeletedUsername, logActivity } from "../activity/activity-log.js";
import { revokeUserTokens } from "../api-tokens/tokens-service.js";
import type { GenerationManager } from "../chat/generation/generation-manager.js";
import type { FileStore } from "../knowledge/file-store.js";
import { forgetResetLinks } from "../password-reset/forget-links.js";
import { endSessionsOf, type SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";
import { type AdminUserRow, adminUserColumns, withUsage } from "./admin-user-view.js";
import { assertAdminRemains, assertNotSelf, lockForAdminRemoval, USER_NOT_FOUND } from "./guards.js";

/** The form's email (lower-cased by its field): empty is no email, absent is no change. */
const emailOf = (email: string | null | undefined) => (email === undefined ? undefined : email || null);

/** The admin acting, named on the log rows of what they do to another account. */
const actorFor = (who: Who, userId: number) => (who.id === userId ? undefined : { id: who.id, username: who.username });

/** POST /api/admin/users: a new account with the role and plan the admin chose, logged as created by the admin. */
export async function createUserAsAdmin(options: { db: Db; who: Who; input: CreateAdminUserInput; meta: RequestMeta }): Promise<AdminUser> {
  const { db, who, input, meta } = options;
  const wanted = { username: input.username, email: emailOf(input.email) ?? null };
  await assertAccountFree(db, wanted);
  const passwordHash = await hashPassword(input.password);
  const row = await db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          username: input.username,
          name: input.name || null,
          email: wanted.email,
          passwordHash,
          role: input.role,
          planType: input.planType,
        })
        .returning(adminUserColumns);
      if (!created) throw new Error("insert returned no row");
      await tx.insert(userSettings).values({ userId: created.id }).onConflictDoNothing();
      await logActivity(tx, { userId: created.id, action: "user_created", actor: actorFor(who, created.id), ...meta });
      return created;
    })
    .catch((error: unknown) => conflictAfterRace(db, error, wanted));
  const [view] = await withUsage(db, [row]);
  return view as AdminUser;
}

type Deps = { db: Db; sessions: SessionStore; who: Who; meta: RequestMeta };

/**
 * PATCH /api/admin/users/{id}: only what was sent changes. Disabling ends the user's sessions on every
 * instance; a new password ends them too. Each kind of change (status, plan, role, name or email, password) is
 * logged with the admin as its actor and the admin's IP and user agent, in the same transaction as the change.
 */
export async function updateUserAsAdmin(
  options: Deps & { userId: number; input: AdminUserPatch; sessionId: string | null },
): Promise<AdminUser> {
  const { db, who, userId, input, meta } = options;
  const demote = input.role === "user";
  const disable = input.status === "inactive";
  if (disable) assertNotSelf(who, userId, "disable");
  if (demote) assertNotSelf(who, userId, "demote");
  const email = emailOf(input.email);
  if (email) await assertAccountFree(db, { email, exceptUserId: userId });
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;

  const { before, after } = await db
    .transaction(async (tx) => {
      let before: AdminUserRow | undefined;
      if (demote || disable) {
        const locked = await lockForAdminRemoval(tx, userId);
        before = locked.target;
        if (before) assertAdminRemains({ who, admins: locked.admins, target: before, removal: disable ? "disable" : "demote" });
      } else {
        [before] = await tx.select(adminUserColumns).from(users).where(eq(users.id, userId)).for("update");
      }
      if (!before) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
      const [after] = await tx
        .update(users)
        .set({
          ...(input.name !== undefined ? { name: input.name || null } : {}),
          ...(email !== undefined ? { email } : {}),
          ...(input.role ? { role: input.role } : {}),
          ...(input.planType ? { planType: input.planType } : {}),
          ...(input.status ? { status: input.status } : {}),
          ...(passwordHash ? { passwordHash } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, userId))
        .returning(adminUserColumns);
      if (!after) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
      const log = (action: "account_disabled" | "account_enabled" | "plan_change" | "role_change" | "profile_change" | "password_reset") =>
        logActivity(tx, { userId, action, actor: actorFor(who, userId), ...meta });
      if (before.status !== after.status) await log(after.status === "inactive" ? "account_disabled" : "account_enabled");
      if (before.planType !== after.planType) await log("plan_change");
      if (before.role !== after.role) await log("role_change");
      if (before.name !== after.name || before.email !== after.email) await log("profile_change");
      if (passwordHash) await log("password_reset");
      if (passwordHash || before.email !== after.email) await forgetResetLinks(tx, userId);
      // An admin setting the password is a reset: the account's API tokens end with it (decision 056).
      if (passwordHash) await revokeUserTokens(tx, userId);
      return { before, after };
    })
    .catch((error: unknown) => conflictAfterRace(db, error, { email, exceptUserId: userId }));

  if (before.status === "active" && after.status === "inactive") {
    // Ends every session of the user at once, on every instance; their browsers are told the account was disabled.
    await options.sessions.endUserSessions(userId, "account_disabled");
  } else {
    const enabled = before.status === "inactive" && after.status === "active";
    // Enabled again: any session left is ended, and old cookies are no longer told the account is disabled.
    if (enabled) await options.sessions.revokeUserSessions(userId);
    // A new password ends every session of the user at once, on every instance, saying why (an admin resetting their
    // own password keeps this one, and their other browsers are told the password changed).
    const self = who.id === userId;
    if (passwordHash)
      await options.sessions.endUserSessions(
        userId,
        self ? "password_changed" : "signed_out_by_admin",
        self ? (options.sessionId ?? undefined) : undefined,
      );
    if (!enabled && !passwordHash) await userChanged(options.sessions, userId);
  }
  const [view] = await withUsage(db, [after]);
  return view as AdminUser;
}

/**
 * DELETE /api/admin/users/{id}: the account and, through the foreign keys (all ON DELETE CASCADE), its chats
 * and messages, personalities, courses (public ones too) with their modules, lessons and runs, uploads,
 * settings and sessions, in one transaction. The account's log rows keep its username, since the account is gone.
 */
export async function deleteUserAsAdmin(
  options: Deps & { userId: number; generations: GenerationManager; fileStore: FileStore },
): Promise<void> {
  const { db, who, userId, meta } = options;
  assertNotSelf(who, userId, "delete");
  const { live: streaming, stored } = await db.transaction(async (tx) => {
    const { admins, target } = await lockForAdminRemoval(tx, userId);
    if (!target) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
    assertAdminRemains({ who, admins, target, removal: "delete" });
    const live = await tx
      .select({ id: messages.id, generationOwner: messages.generationOwner, content: messages.content })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.status, "streaming")));
    await logActivity(tx, { userId, action: "user_deleted", actor: actorFor(who, userId), ...meta });
    // Every row of the account, this one too, keeps the username its user_id is about to lose.
    await keepDeletedUsername(tx, target);
    // Their library's bytes (the database's parts, the object store's objects) go after the rows (decision 074).
    const stored = await tx
      .select({ id: knowledgeFiles.id, storage: knowledgeFiles.storage, storageKey: knowledgeFiles.storageKey })
      .from(knowledgeFiles)
      .where(eq(knowledgeFiles.userId, userId));
    // Its sessions end with it, remembered so a browser still holding one is told why (decision 061).
    await endSessionsOf(tx, userId, "account_deleted");
    await tx.delete(users).where(eq(users.id, userId));
    return { live, stored };
  });
  // The rows are gone; this drops the sessions cached by every instance, and stops replies still being written.
  await options.sessions.forgetEndedSessions(userId);
  for (const reply of streaming) await options.generations.stop(reply);
  await options.fileStore.remove(stored);
}
