import { count, eq, or, sql } from "drizzle-orm";
import type { LoginBody, RegisterBody } from "../../../shared/contracts/auth.js";
import type { Db } from "../../db/client.js";
import { platformSettings, userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, spendVerifyTime, verifyPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { logActivity } from "../activity/activity-log.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { assertAccountNotLocked, clearLoginFailures, recordLoginFailure } from "./login-throttle.js";

// Serialises "is this the first account?" so two sign-ups on an empty database cannot both become admin.
const FIRST_ACCOUNT_LOCK = 727_002;
const INVALID_LOGIN = "Invalid username or password";

type Meta = RequestMeta;

/**
 * Creates the account. The plan is always free here: Early Access is granted
 * only by a verified payment, never by the request body.
 */
export async function registerUser(options: { db: Db; input: RegisterBody; meta: Meta }): Promise<Who> {
  const { db, input, meta } = options;
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`);
    const [existing] = await tx
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${input.username})`, sql`lower(${users.email}) = lower(${input.email})`))
      .limit(1);
    if (existing) {
      const sameName = existing.username.toLowerCase() === input.username.toLowerCase();
      throw new AppError("CONFLICT", sameName ? "Username already exists" : "An account with this email already exists", {
        errors: sameName ? { username: "Username already exists" } : { email: "An account with this email already exists" },
      });
    }
    const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(users);
    if (total > 0) {
      const [settings] = await tx.select({ allow: platformSettings.allowRegistration }).from(platformSettings).limit(1);
      if (settings && !settings.allow)
        throw new AppError("FORBIDDEN", "Registration is currently closed. Please contact the administrator.");
    }
    const [created] = await tx
      .insert(users)
      .values({
        username: input.username,
        name: input.name,
        email: input.email.toLowerCase(),
        passwordHash,
        role: total === 0 ? "admin" : "user",
        planType: "free",
      })
      .returning(sessionUserColumns);
    if (!created) throw new Error("insert returned no row");
    await tx.insert(userSettings).values({ userId: created.id }).onConflictDoNothing();
    return created;
  });
  await logActivity(db, { userId: user.id, action: "register", ...meta });
  return user;
}

/** Checks the password; an unknown name costs the same time and gets the same answer as a wrong password. */
export async function authenticate(options: { db: Db; counters: CounterStore; input: LoginBody; meta: Meta }): Promise<Who> {
  const { db, counters, input, meta } = options;
  await assertAccountNotLocked(counters, input.username);
  const byEmail = input.username.includes("@");
  const [row] = await db
    .select({ user: sessionUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(byEmail ? sql`lower(${users.email}) = lower(${input.username})` : sql`lower(${users.username}) = lower(${input.username})`)
    .limit(1);

  let ok = false;
  if (row) ok = await verifyPassword(row.passwordHash, input.password);
  else await spendVerifyTime(input.password);
  if (!row || !ok) {
    await recordLoginFailure(counters, input.username);
    await logActivity(db, { userId: row?.user.id ?? null, action: "failed_login", attemptedUsername: input.username, ...meta });
    throw new AppError("UNAUTHORIZED", INVALID_LOGIN);
  }
  await clearLoginFailures(counters, input.username);
  await logActivity(db, { userId: row.user.id, action: "login", ...meta });
  return row.user;
}

export async function findUserById(db: Db, userId: number): Promise<Who | null> {
  const [row] = await db.select(sessionUserColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** A new session for a user who just proved who they are; whatever session the browser had is ended, never upgraded. */
export async function startSession(options: { sessions: SessionStore; previousSessionId: string | null; userId: number; meta: Meta }) {
  if (options.previousSessionId) await options.sessions.revoke(options.previousSessionId);
  return options.sessions.create(options.userId, options.meta);
}

/** Logout: the session ends at once on every instance, and the log says so. */
export async function endSession(options: { db: Db; sessions: SessionStore; who: Who | null; sessionId: string | null; meta: Meta }) {
  if (!options.sessionId || !options.who) return;
  await options.sessions.revoke(options.sessionId);
  await logActivity(options.db, { userId: options.who.id, action: "logout", ...options.meta });
}
