import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne, type SQL, sql } from "drizzle-orm";
import type { SessionEndReason } from "../../../shared/signed-out.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { endedSessions, sessions, users } from "../../db/schema/index.js";
import type { RedisLink } from "../../lib/redis.js";
import { sha256Hex } from "../../lib/sha256.js";
import type { Who } from "../../lib/who.js";
import { sessionUserColumns } from "./public-user.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long one instance trusts a looked-up session before asking the database again. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX = 10_000;
const INVALIDATE_CHANNEL = "sessions:invalidate";
/** A broadcast is never awaited; past this it counts as failed (for the log). */
const PUBLISH_TIMEOUT_MS = 1_000;
export const BROADCAST_DOWN_MESSAGE = "Redis unavailable: other instances drop revoked sessions from their cache within 5 s";

export interface ResolvedSession {
  id: string;
  user: Who;
  absoluteExpiresAt: Date;
}

interface CacheEntry extends ResolvedSession {
  idleExpiresAt: Date;
  cachedAt: number;
}

export interface SessionStoreOptions {
  db: Db;
  idleDays: number;
  maxDays: number;
  redis?: RedisLink;
  /** Told once when a broadcast fails (Redis down), not per request. */
  log?: (message: string) => void;
}

/**
 * Sessions live in the database (only the SHA-256 of the token). A short
 * in-process cache keeps the hot path to memory; every revocation clears the
 * cache of this instance at once and, with Redis, of every other instance.
 * The cache is keyed by the cookie's token itself, so a hit costs one map read
 * and no hash (issue 15, bench/auth-read); the token never leaves this process.
 */
export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly idleMs: number;
  private readonly maxMs: number;
  private broadcastFailing = false;

  constructor(private readonly options: SessionStoreOptions) {
    this.idleMs = options.idleDays * DAY;
    this.maxMs = options.maxDays * DAY;
  }

  async start(): Promise<void> {
    const redis = this.options.redis;
    if (!redis) return;
    await redis.subscriber.subscribe(INVALIDATE_CHANNEL);
    redis.subscriber.on("message", (channel, message) => {
      if (channel === INVALIDATE_CHANNEL) this.applyInvalidation(message);
    });
  }

  async create(userId: number, meta: { ip: string; userAgent: string | null }) {
    const token = randomBytes(32).toString("base64url");
    const now = Date.now();
    const absoluteExpiresAt = new Date(now + this.maxMs);
    await this.options.db.insert(sessions).values({
      id: sha256Hex(token),
      userId,
      idleExpiresAt: new Date(Math.min(now + this.idleMs, absoluteExpiresAt.getTime())),
      absoluteExpiresAt,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
    });
    return { token, absoluteExpiresAt };
  }

  /** The session of a token from the cache alone: `undefined` when the database must be asked (`resolve`). */
  cached(token: string): ResolvedSession | undefined {
    const entry = this.cache.get(token);
    if (!entry) return undefined;
    const now = Date.now();
    if (now - entry.cachedAt < CACHE_TTL_MS && entry.idleExpiresAt.getTime() > now) return entry;
    this.cache.delete(token);
    return undefined;
  }

  async resolve(token: string): Promise<ResolvedSession | null> {
    const hit = this.cached(token);
    if (hit) return hit;
    const id = sha256Hex(token);
    const now = Date.now();

    const rows = await this.options.db
      .select({ session: sessions, user: sessionUserColumns })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      // A disabled account's sessions are deleted when it is disabled; any left (a race) still do not authenticate.
      .where(
        and(
          eq(sessions.id, id),
          gt(sessions.idleExpiresAt, new Date(now)),
          gt(sessions.absoluteExpiresAt, new Date(now)),
          eq(users.status, "active"),
        ),
      )
      .limit(1);
    const row = rows[0];
    if (!row) return null;

    let idleExpiresAt = row.session.idleExpiresAt;
    // Sliding expiry, written at most once an hour per session to keep reads cheap.
    if (idleExpiresAt.getTime() - now < this.idleMs - HOUR) {
      idleExpiresAt = new Date(Math.min(now + this.idleMs, row.session.absoluteExpiresAt.getTime()));
      await this.options.db.update(sessions).set({ idleExpiresAt }).where(eq(sessions.id, id));
    }
    const entry: CacheEntry = { id, user: row.user, absoluteExpiresAt: row.session.absoluteExpiresAt, idleExpiresAt, cachedAt: now };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(token, entry);
    return entry;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.options.db.delete(sessions).where(eq(sessions.id, sessionId));
    await this.broadcast(`session:${sessionId}`);
  }

  /**
   * Ends every session of the user, on every instance, and remembers why (decision 061): the browser that still holds
   * one is told (`endedReason`) on its next request or session probe. `keepSessionId`: the session that made the change
   * (a password changed here) stays.
   */
  async endUserSessions(userId: number, reason: SessionEndReason, keepSessionId?: string): Promise<void> {
    await endSessionsOf(this.options.db, userId, reason, keepSessionId);
    await this.broadcast(`user:${userId}`);
  }

  /**
   * Why the token's session was ended for its browser, if the server knows: the reason kept when it was ended, or an
   * account disabled since (a session that slipped past the disabling). One indexed read each, asked on a 401 only.
   */
  async endedReason(token: string): Promise<SessionEndReason | null> {
    const id = sha256Hex(token);
    const [ended] = await this.options.db
      .select({ reason: endedSessions.reason })
      .from(endedSessions)
      .where(and(eq(endedSessions.id, id), gt(endedSessions.expiresAt, new Date())))
      .limit(1);
    if (ended) return ended.reason;
    const [row] = await this.options.db
      .select({ status: users.status })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, id))
      .limit(1);
    return row?.status === "inactive" ? "account_disabled" : null;
  }

  /** Deletes every session of the user but `keepSessionId`, with no reason kept (the account was enabled again). */
  async revokeUserSessions(userId: number, keepSessionId?: string): Promise<void> {
    const where = keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId);
    await this.options.db.delete(sessions).where(where);
    // Enabled again: an old cookie is no longer told the account is disabled.
    await this.options.db.delete(endedSessions).where(and(eq(endedSessions.userId, userId), eq(endedSessions.reason, "account_disabled")));
    await this.broadcast(`user:${userId}`);
  }

  /** After the user's sessions were ended inside a transaction (`endSessionsOf`): every instance drops its copies. */
  async forgetEndedSessions(userId: number): Promise<void> {
    await this.broadcast(`user:${userId}`);
  }

  /** The user row changed (profile, role, plan): cached copies must be read again. */
  async forgetUser(userId: number): Promise<void> {
    await this.broadcast(`user:${userId}`);
  }

  /**
   * Clears this instance's cache at once and tells the others through Redis without waiting for it:
   * logout, login and password change never wait on Redis (their caches expire within 5 s anyway).
   */
  private async broadcast(message: string): Promise<void> {
    this.applyInvalidation(message);
    const redis = this.options.redis;
    if (!redis) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("publish timed out")), PUBLISH_TIMEOUT_MS);
      timer.unref();
    });
    void Promise.race([redis.client.publish(INVALIDATE_CHANNEL, message), timeout])
      .then(
        () => {
          this.broadcastFailing = false;
        },
        () => {
          if (this.broadcastFailing) return;
          this.broadcastFailing = true;
          (this.options.log ?? ((line: string) => console.warn(line)))(BROADCAST_DOWN_MESSAGE);
        },
      )
      .finally(() => clearTimeout(timer));
  }

  private applyInvalidation(message: string): void {
    const [kind, value] = message.split(":", 2);
    if (!value) return;
    // Revocations are rare (logout, password change, role change): a pass over at most CACHE_MAX entries.
    const userId = Number(value);
    for (const [token, entry] of this.cache) {
      if (kind === "session" ? entry.id === value : kind === "user" && entry.user.id === userId) this.cache.delete(token);
    }
  }
}

/**
 * Deletes the user's sessions (but `keepSessionId`) and keeps, in the same statement, why each ended, until it would
 * have expired (decision 061). Takes a transaction where the ending belongs to one (an account deleted: before its row
 * goes); the caller then broadcasts (`SessionStore.endUserSessions` does both). Reasons past their session's expiry go.
 */
export async function endSessionsOf(db: DbOrTx, userId: number, reason: SessionEndReason, keepSessionId?: string): Promise<void> {
  const keep: SQL = keepSessionId ? sql` and ${sessions.id} <> ${keepSessionId}` : sql``;
  await db.execute(sql`
    with ended as (
      delete from ${sessions} where ${sessions.userId} = ${userId}${keep}
      returning ${sessions.id} as id, ${sessions.absoluteExpiresAt} as expires_at
    )
    insert into ${endedSessions} (id, user_id, reason, expires_at)
    select id, ${userId}, ${reason}, expires_at from ended
    on conflict (id) do update set reason = excluded.reason, ended_at = now(), expires_at = excluded.expires_at`);
  await db.delete(endedSessions).where(lt(endedSessions.expiresAt, new Date()));
}
