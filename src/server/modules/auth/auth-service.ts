import { and, count, eq, gt, ne, not, or, sql } from "drizzle-orm";
import type { PlanType } from "../../../shared/constants.js";
import { ACCOUNT_DISABLED_MESSAGE } from "../../../shared/contracts/admin-users.js";
import type { LoginBody, RegistrationFields } from "../../../shared/contracts/auth.js";
import { REGISTRATION_CLOSED } from "../../../shared/contracts/platform-settings.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts, userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, spendVerifyTime, verifyPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { assertAccountFree, conflictAfterRace } from "../accounts/account-free.js";
import { logActivity } from "../activity/activity-log.js";
import { PRODUCT_EMAILS } from "../email/product-email-slugs.js";
import { type EmailFailureLog, queueProductEmail } from "../email/product-emails.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { KnownDevice } from "./device-cookie.js";
import { clearLoginFailures, countLoginAttempt, type LoginSubject } from "./login-throttle.js";

// Serialises "is this the first account?" so two sign-ups on an empty database cannot both become admin.
const FIRST_ACCOUNT_LOCK = 727_002;
const INVALID_LOGIN = "Invalid username or password";

type Meta = RequestMeta;

/**
 * Creates a free account from the Register form. Early Access is granted only by a verified payment
 * (payments/complete-checkout.ts), never by the request body.
 */
export async function registerUser(options: {
  db: Db;
  input: RegistrationFields;
  meta: Meta;
  /** Where the welcome email's link points (PUBLIC_ORIGIN, never the request's Host). */
  loginUrl: string;
  log?: EmailFailureLog;
  /** The checkout this browser started and left for the Free plan: it does not hold the name against it. */
  ownCheckoutId?: number | null;
}): Promise<Who> {
  const { db, input, meta } = options;
  // Refused before the (deliberately slow) password hash; checked again inside the transaction below.
  await assertRegistrationOpen(db);
  const passwordHash = await hashPassword(input.password);
  const user = await db
    .transaction((tx) =>
      insertAccount({
        tx,
        account: { ...input, passwordHash },
        planType: "free",
        registrationMustBeOpen: true,
        exceptCheckoutId: options.ownCheckoutId,
        loginUrl: options.loginUrl,
        log: options.log,
      }),
    )
    .catch((error: unknown) => conflictAfterRace(db, error, input));
  await logActivity(db, { userId: user.id, action: "register", ...meta });
  return user;
}

/**
 * An unpaid Early Access checkout holds its username and email against other sign-ups only while its page
 * shows signs of life (decision 029): its start, its resume, and the page's status read every minute renew
 * it; this long without any releases it. Nothing else (the reconciler, a restart from another browser) does.
 */
export const CHECKOUT_HOLD_IDLE_MS = 5 * 60_000;
/** A hold is live when its checkout's page was seen after this moment. */
export const holdLiveSince = () => new Date(Date.now() - CHECKOUT_HOLD_IDLE_MS);
export const NAME_HELD = "This username is being registered right now. Please choose another one.";
export const EMAIL_HELD =
  "A registration for this email is waiting for its payment. Finish it where you started it, or try again in 5 minutes once that page is closed.";

/**
 * 409 with the field that is taken: by an account (`assertAccountFree`), or (unless `checkouts: "ignore"`) by
 * a live Early Access checkout (its page seen in the last 5 minutes), so nobody takes a name while its owner is
 * paying for it. `checkouts: "otherEmails"` (a checkout starting) leaves checkouts of the same email to the
 * caller; `exceptCheckoutId` is the caller's own checkout (a visitor who chose Free instead).
 */
export async function assertNameFree(
  db: Db,
  account: { username: string; email: string },
  options: { checkouts?: "all" | "otherEmails" | "ignore"; exceptCheckoutId?: number | null } = {},
): Promise<void> {
  const checkouts = options.checkouts ?? "all";
  await assertAccountFree(db, account);
  if (checkouts === "ignore") return;
  const sameEmail = sql`lower(${pendingCheckouts.email}) = lower(${account.email})`;
  const [held] = await db
    .select({ username: pendingCheckouts.username })
    .from(pendingCheckouts)
    .where(
      and(
        eq(pendingCheckouts.kind, "register"),
        eq(pendingCheckouts.status, "pending"),
        gt(pendingCheckouts.lastSeenAt, holdLiveSince()),
        options.exceptCheckoutId ? ne(pendingCheckouts.id, options.exceptCheckoutId) : undefined,
        checkouts === "otherEmails"
          ? and(sql`lower(${pendingCheckouts.username}) = lower(${account.username})`, not(sameEmail))
          : or(sql`lower(${pendingCheckouts.username}) = lower(${account.username})`, sameEmail),
      ),
    )
    .limit(1);
  if (!held) return;
  const nameHeld = held.username.toLowerCase() === account.username.toLowerCase();
  throw new AppError("CONFLICT", nameHeld ? NAME_HELD : EMAIL_HELD, {
    errors: nameHeld ? { username: NAME_HELD } : { email: EMAIL_HELD },
  });
}

/**
 * Inserts an account inside the caller's transaction: the name must be free (409), the first account of
 * an empty database becomes admin (serialised by an advisory lock), and the `welcome` email is queued in
 * the same transaction (so it goes only if the account exists; a failure to queue it never refuses it).
 * A paid checkout passes `registrationMustBeOpen: false`: a payment taken is honoured even if an admin
 * closed registration meanwhile.
 */
export async function insertAccount(options: {
  tx: Db;
  account: { username: string; name: string | null; email: string; passwordHash: string };
  planType: PlanType;
  registrationMustBeOpen: boolean;
  /** The visitor's own checkout, which does not hold the name against them. */
  exceptCheckoutId?: number | null;
  loginUrl: string;
  log?: EmailFailureLog;
}): Promise<Who> {
  const { tx, account } = options;
  await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`);
  // A paid checkout wins over an unpaid one holding the same name: only accounts count then.
  await assertNameFree(tx, account, {
    checkouts: options.registrationMustBeOpen ? "all" : "ignore",
    exceptCheckoutId: options.exceptCheckoutId,
  });
  const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(users);
  if (options.registrationMustBeOpen && total > 0 && !(await readPlatformSettings(tx)).allowRegistration) {
    throw new AppError("FORBIDDEN", REGISTRATION_CLOSED);
  }
  const [created] = await tx
    .insert(users)
    .values({
      username: account.username,
      name: account.name,
      email: account.email,
      passwordHash: account.passwordHash,
      role: total === 0 ? "admin" : "user",
      planType: options.planType,
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
}

/**
 * Platform Settings > Allow registration off: sign-ups are refused (403). The first account of an empty
 * database is still accepted (it becomes the admin who can open registration again); `npm run
 * create-admin` does not go through here.
 */
export async function assertRegistrationOpen(db: Db): Promise<void> {
  if ((await readPlatformSettings(db)).allowRegistration) return;
  const [anyone] = await db.select({ id: users.id }).from(users).limit(1);
  if (anyone) throw new AppError("FORBIDDEN", REGISTRATION_CLOSED);
}

/**
 * Checks the password. The typed name or email is first resolved to its account (one indexed query), and
 * the attempt is counted against that account (or against the browser's own allowance when it carries a
 * device cookie of that account) before the password is verified: past 5 in 15 minutes it is refused
 * unverified. An unknown name is counted per typed name and costs the same verification time, so the
 * answers (status, text, timing) do not tell which names exist.
 */
export async function authenticate(options: {
  db: Db;
  counters: CounterStore;
  input: LoginBody;
  meta: Meta;
  /** The browser's valid device cookie, whatever account it names (checked here against the account). */
  knownDevice?: KnownDevice | null;
}): Promise<Who> {
  const { db, counters, input, meta, knownDevice } = options;
  const byEmail = input.username.includes("@");
  const [row] = await db
    .select({ user: sessionUserColumns, passwordHash: users.passwordHash, status: users.status })
    .from(users)
    .where(byEmail ? sql`lower(${users.email}) = lower(${input.username})` : sql`lower(${users.username}) = lower(${input.username})`)
    .limit(1);
  const subject: LoginSubject = row
    ? { account: row.user.id, device: knownDevice?.userId === row.user.id ? knownDevice.device : undefined }
    : { unknownName: input.username };
  await countLoginAttempt(counters, subject);

  let ok = false;
  if (row) ok = await verifyPassword(row.passwordHash, input.password);
  else await spendVerifyTime(input.password);
  if (!row || !ok) {
    await logActivity(db, { userId: row?.user.id ?? null, action: "failed_login", attemptedUsername: input.username, ...meta });
    throw new AppError("UNAUTHORIZED", INVALID_LOGIN);
  }
  await clearLoginFailures(counters, subject);
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
