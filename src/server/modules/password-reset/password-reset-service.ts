import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import {
  type ForgotPasswordBody,
  RESET_LINK_INVALID,
  RESET_TOKEN_TTL_MINUTES,
  type ResetLinkState,
  type ResetPasswordBody,
} from "../../../shared/contracts/password-reset.js";
import type { Db } from "../../db/client.js";
import { passwordResetTokens, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword } from "../../lib/passwords.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import { sha256Hex } from "../../lib/sha256.js";
import { logActivity } from "../activity/activity-log.js";
import { revokeUserTokens } from "../api-tokens/tokens-service.js";
import { unlockAccount } from "../auth/login-throttle.js";
import { PRODUCT_EMAILS } from "../email/product-email-slugs.js";
import { type EmailFailureLog, queuePasswordChanged, queueProductEmail } from "../email/product-emails.js";
import type { SessionStore } from "../sessions/session-store.js";
import { forgetResetLinks } from "./forget-links.js";

const HOUR_MS = 60 * 60_000;
/** Reset emails per account per hour; past it the answer stays the same and no email goes. */
const REQUESTS_PER_ACCOUNT = 5;
/** Reset requests per address per hour; past it a 429. */
const REQUESTS_PER_IP = 20;
/** Reset attempts (token + new password) per address per hour: a guessed token is hopeless, but each try costs a hash. */
const RESETS_PER_IP = 30;
/** Link checks per address per hour: each opening of the reset page is one; past it a 429. */
const CHECKS_PER_IP = 60;
/**
 * Every forgot-password answer takes at least this long, so a known account (a token, an email queued) and an
 * unknown one (one SELECT) cannot be told apart by timing.
 */
export const FORGOT_PASSWORD_MIN_MS = 300;

function tooMany(message: string, resetInMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(resetInMs / 60_000));
  return new AppError("TOO_MANY_REQUESTS", `${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST /api/forgot-password. The caller always gets the same answer: whether an email went (known, active
 * account under its hourly allowance) is never said, and the time spent is padded to the same floor.
 */
export async function requestPasswordReset(options: {
  db: Db;
  counters: CounterStore;
  input: ForgotPasswordBody;
  meta: RequestMeta;
  origin: string;
  log?: EmailFailureLog;
}): Promise<void> {
  const { db, counters, input } = options;
  const ip = await counters.hit(`forgot-ip:${options.meta.ip}`, HOUR_MS);
  if (ip.count > REQUESTS_PER_IP) throw tooMany("Too many password reset requests from your network.", ip.resetInMs);

  const started = Date.now();
  try {
    const { email } = input; // lower-cased by its field
    const account = await counters.hit(`forgot-account:${email}`, HOUR_MS);
    if (account.count > REQUESTS_PER_ACCOUNT) return;
    const [user] = await db
      .select({ id: users.id, name: users.name, username: users.username, email: users.email, status: users.status })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (!user?.email || user.status !== "active") return;
    const to = user.email;

    const token = randomBytes(32).toString("base64url");
    const resetUrl = `${options.origin}/reset-password?token=${token}`;
    try {
      await db.transaction(async (tx) => {
        // A new link replaces the earlier unused ones.
        await forgetResetLinks(tx, user.id);
        await tx.insert(passwordResetTokens).values({
          userId: user.id,
          tokenHash: sha256Hex(token),
          expiresAt: sql`now() + make_interval(mins => ${RESET_TOKEN_TTL_MINUTES})`,
        });
        const queued = await queueProductEmail({
          db: tx,
          to,
          template: PRODUCT_EMAILS.passwordReset,
          data: { name: user.name ?? user.username, resetUrl },
          log: options.log,
        });
        // No email, no link: a token nobody can receive is not kept.
        if (!queued) throw new Error("the password reset email could not be queued");
      });
    } catch (error) {
      options.log?.("password reset request failed", error);
    }
  } finally {
    const left = FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
    if (left > 0) await sleep(left);
  }
}

/**
 * POST /api/reset-password/check: whether the link still works, so the page says at once that it was used or
 * has expired (issue 29). One indexed read; it tells nothing about the account behind the link.
 */
export async function checkResetLink(options: {
  db: Db;
  counters: CounterStore;
  token: string;
  meta: RequestMeta;
}): Promise<ResetLinkState> {
  const { db } = options;
  const ip = await options.counters.hit(`reset-check-ip:${options.meta.ip}`, HOUR_MS);
  if (ip.count > CHECKS_PER_IP) throw tooMany("Too many password reset link checks from your network.", ip.resetInMs);
  const [link] = await db
    .select({
      usedAt: passwordResetTokens.usedAt,
      expired: sql<boolean>`${passwordResetTokens.expiresAt} <= now()`,
      status: users.status,
    })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, sha256Hex(options.token)))
    .limit(1);
  if (link?.status !== "active") return "invalid";
  if (link.usedAt) return "used";
  return link.expired ? "expired" : "valid";
}

/**
 * POST /api/reset-password. The token is spent atomically (one UPDATE ... WHERE used_at IS NULL AND
 * expires_at > now() RETURNING) in the same transaction as the new password, so two parallel uses cannot
 * both succeed. Every session and every API token of the account ends, the log records it, `password-changed` is queued, and
 * the sign-in lockout of the account ends (whoever reads the account's email is its owner).
 */
export async function resetPassword(options: {
  db: Db;
  sessions: SessionStore;
  counters: CounterStore;
  input: ResetPasswordBody;
  meta: RequestMeta;
  log?: EmailFailureLog;
}): Promise<void> {
  const { db, input, meta } = options;
  const ip = await options.counters.hit(`reset-ip:${meta.ip}`, HOUR_MS);
  if (ip.count > RESETS_PER_IP) throw tooMany("Too many password reset attempts from your network.", ip.resetInMs);

  const tokenHash = sha256Hex(input.token);
  const usable = and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, sql`now()`),
  );
  // Checked before the (deliberately slow) hash so a wrong link costs nothing; checked again atomically below.
  const [candidate] = await db.select({ id: passwordResetTokens.id }).from(passwordResetTokens).where(usable).limit(1);
  if (!candidate) throw new AppError("BAD_REQUEST", RESET_LINK_INVALID);
  const passwordHash = await hashPassword(input.password);

  const userId = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(usable)
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) throw new AppError("BAD_REQUEST", RESET_LINK_INVALID);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, spent.userId), eq(users.status, "active")))
      .returning({ id: users.id, name: users.name, username: users.username, email: users.email });
    // Disabled since the link was sent: the link does nothing (and the whole transaction rolls back).
    if (!user) throw new AppError("BAD_REQUEST", RESET_LINK_INVALID);
    await forgetResetLinks(tx, user.id);
    // A reset is how a stolen account is taken back: every API token ends with it (decision 056).
    await revokeUserTokens(tx, user.id);
    await logActivity(tx, { userId: user.id, action: "password_reset", ...meta });
    await queuePasswordChanged({ db: tx, user, log: options.log });
    return user.id;
  });
  // Ends every session on every instance (and drops cached copies of the user).
  await options.sessions.endUserSessions(userId, "password_changed");
  await unlockAccount(options.counters, userId);
}
