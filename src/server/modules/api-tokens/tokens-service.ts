import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { type ApiToken, TOKEN_MESSAGES, TOKENS_PER_USER_MAX } from "../../../shared/contracts/api-tokens.js";
import type { TokenScope } from "../../../shared/contracts/endpoint.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { apiTokens, users } from "../../db/schema/index.js";
import type { BearerLookup } from "../../lib/access.js";
import { AppError } from "../../lib/app-error.js";
import { sha256Hex } from "../../lib/sha256.js";
import type { Who } from "../../lib/who.js";
import { entitlements } from "../entitlements/entitlements.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { sessionUserColumns } from "../sessions/public-user.js";

/** Every token starts so, which lets secret scanners and people recognise one. */
const TOKEN_PREFIX = "lum_";
const DAY_MS = 24 * 60 * 60 * 1000;
/** `last_used_at` is written at most once a minute per token: reads stay reads. */
const LAST_USED_EVERY_MS = 60_000;

type TokenRow = typeof apiTokens.$inferSelect;

function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    scopes: row.scopes as TokenScope[],
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Whether the user's plan may hold tokens (admins always may: they set the rule), by the plan rule of shared/plan.ts. */
async function mayHoldTokens(db: Db, user: Pick<Who, "role" | "planType">): Promise<boolean> {
  return entitlements.planAllows(user, (await readPlatformSettings(db)).apiTokenPlans);
}

const live = (now = new Date()) => and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now));

export async function createToken(
  { db, who }: { db: Db; who: Who },
  input: { name: string; expiresInDays: number; scopes: TokenScope[] },
): Promise<ApiToken & { token: string }> {
  if (!(await mayHoldTokens(db, who))) throw new AppError("FORBIDDEN", TOKEN_MESSAGES.planOff);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return db.transaction(async (tx) => {
    // The user's row is the lock: two creates at once cannot both pass the count.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, who.id)).for("update");
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, who.id), live()));
    if (count >= TOKENS_PER_USER_MAX) throw new AppError("CONFLICT", TOKEN_MESSAGES.tooMany);
    const [row] = await tx
      .insert(apiTokens)
      .values({
        userId: who.id,
        name: input.name,
        tokenHash: sha256Hex(token),
        hint: token.slice(-4),
        scopes: input.scopes,
        expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
      })
      .returning();
    if (!row) throw new Error("the token was not stored");
    return { ...toApiToken(row), token };
  });
}

/** The caller's live tokens, newest first. */
export async function listTokens({ db, who }: { db: Db; who: Who }): Promise<ApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, who.id), live()))
    .orderBy(desc(apiTokens.id));
  return rows.map(toApiToken);
}

/** Revokes one of the caller's tokens (another user's, or one already gone: 404). It stops working at once. */
export async function revokeToken({ db, who }: { db: Db; who: Who }, id: number): Promise<void> {
  const done = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, who.id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (done.length === 0) throw new AppError("NOT_FOUND", "Token not found");
}

/**
 * Ends every live token of a user, at once on every instance (the bearer check reads the row each request): a password
 * reset always does (by the link or an admin: it is how a stolen account is taken back), a password change unless its
 * person keeps them on purpose (decision 056).
 */
export async function revokeUserTokens(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}

/** Every live token, with its owner (admins). */
export async function listAllTokens({ db }: { db: Db }) {
  const rows = await db
    .select({ token: apiTokens, username: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(live())
    .orderBy(desc(apiTokens.id))
    .limit(1000);
  return rows.map(({ token, username }) => ({ ...toApiToken(token), userId: token.userId, username }));
}

export async function revokeAnyToken({ db }: { db: Db }, id: number): Promise<void> {
  const done = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (done.length === 0) throw new AppError("NOT_FOUND", "Token not found");
}

/**
 * The bearer check (`lib/access.ts`): the token's user and scopes, or null when it is unknown, revoked, expired, its
 * user disabled or its plan no longer allows tokens. Read from the database on every request, so a revoke takes effect
 * at once on every instance. The user acts as a plain user: an admin's powers never travel with a token.
 */
export function bearerLookup(db: Db): BearerLookup {
  return {
    async resolve(token) {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
      const now = new Date();
      const [row] = await db
        .select({ id: apiTokens.id, scopes: apiTokens.scopes, lastUsedAt: apiTokens.lastUsedAt, user: sessionUserColumns })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .where(and(eq(apiTokens.tokenHash, sha256Hex(token)), live(now), eq(users.status, "active")))
        .limit(1);
      if (!row || !(await mayHoldTokens(db, row.user))) return null;
      if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
        await db
          .update(apiTokens)
          .set({ lastUsedAt: now })
          .where(
            and(
              eq(apiTokens.id, row.id),
              or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_EVERY_MS))),
            ),
          );
      }
      const scopes = row.scopes as TokenScope[];
      // The scopes ride on `who`, so a service can tell what the request may reach beyond its route (decision 056).
      return { who: { ...row.user, role: "user", token: { scopes } }, scopes };
    },
  };
}
