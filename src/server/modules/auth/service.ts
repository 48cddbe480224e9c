import { count, eq, or, sql } from "drizzle-orm";
import { ACCOUNT_DISABLED_MESSAGE } from "../../../shared/contracts/admin-users.js";
import type { LoginBody, RegisterBody } from "../../../shared/contracts/auth.js";
import { REGISTRATION_CLOSED } from "../../../shared/contracts/platform-settings.js";
import type { Db } from "../../db/client.js";
import { userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, spendVerifyTime, verifyPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { logActivity } from "../activity/activity-log.js";
import { PRODUCT_EMAILS } from "../email/product-email-slugs.js";
import { type EmailFailureLog, queueProductEmail } from "../email/product-emails.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { assertAccountNotLocked, clearLoginFailures, recordLoginFailure } from "./login-throttle.js";

// Serialises "is this the first account?" so two sign-ups on an empty database cannot both become admin.
const FIRST_ACCOUNT_LOCK = 727_002;
const INVALID_LOGIN = "Invalid username or password";

type Meta = RequestMeta;

/**
 * Creates the account. The plan is always free here: Early Access is granted
 * only by a verified payment, never by the request body. The `welcome` email is queued in the same
 * transaction (so it goes only if the account exists), and a failure to queue it never refuses the sign-up.
 */
export async function registerUser(options: {
  db: Db;
  input: RegisterBody;
  meta: Meta;
  /** Where the welcome email's link points (PUBLIC_ORIGIN, never the request's Host). */
  loginUrl: string;
  log?: EmailFailureLog;
}): Promise<Who> {
  const { db, input, meta } = options;
  // Refused before the (deliberately slow) password hash; checked again inside the transaction below.
  await assertRegistrationOpen(db);
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
    if (total > 0 && !(await readPlatformSettings(tx)).allowRegistration) throw new AppError("FORBIDDEN", REGISTRATION_CLOSED);
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
    await queueProductEmail({
      db: tx,
      to: created.email,
      template: PRODUCT_EMAILS.welcome,
      data: { name: created.name ?? created.username, username: created.username, loginUrl: options.loginUrl },
      log: options.log,
    });
    return created;
  });
  await logActivity(db, { userId: user.id, action: "register", ...meta });
  return user;
}

/**
 * Platform Settings > Allow registration off: sign-ups are refused (403). The first account of an empty
 * database is still accepted (it becomes the admin who can open registration again); `npm run
 * create-admin` does not go through here.
 */
async function assertRegistrationOpen(db: Db): Promise<void> {
  if ((await readPlatformSettings(db)).allowRegistration) return;
  const [anyone] = await db.select({ id: users.id }).from(users).limit(1);
  if (anyone) throw new AppError("FORBIDDEN", REGISTRATION_CLOSED);
}

/** Checks the password; an unknown name costs the same time and gets the same answer as a wrong password. */
export async function authenticate(options: { db: Db; counters: CounterStore; input: LoginBody; meta: Meta }): Promise<Who> {
  const { db, counters, input, meta } = options;
  await assertAccountNotLocked(counters, input.username);
  const byEmail = input.username.includes("@");
  const [row] = await db
    .select({ user: sessionUserColumns, passwordHash: users.passwordHash, status: users.status })
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
  // Said only to whoever knows the password, so it reveals nothing about the account to a guesser.
  if (row.status !== "active") {
    await logActivity(db, { userId: row.user.id, action: "failed_login", attemptedUsername: input.username, ...meta });
    throw new AppError("FORBIDDEN", ACCOUNT_DISABLED_MESSAGE);
  }
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
