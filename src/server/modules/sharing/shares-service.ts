import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { TITLE_MAX } from "../../../shared/contracts/fields.js";
import {
  type AdminShare,
  SHARE_MESSAGES,
  type SharedChat,
  type ShareLink,
  type ShareListQuery,
  sharePagePath,
} from "../../../shared/contracts/sharing.js";
import type { Db } from "../../db/client.js";
import { chatShares, chats, messages, type SharedMessage, userSettings, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { branchRows, shownLeaf } from "../chat/branch-tree.js";
import { findOwnChat } from "../chat/chat-service.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

/** The longest branch a snapshot takes (oldest messages beyond it are left out). */
const SNAPSHOT_MAX_MESSAGES = 5_000;
/** What a continued chat's title says first: where it came from (decision 043). */
export const CONTINUED_PREFIX = "Shared: ";

/** 32 random bytes, base64url: 43 characters (`SHARE_TOKEN_PATTERN`). */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The branch shown of the caller's chat now (decision 019's leaf), as a snapshot: roles, text, attachment names, model
 * names and dates; never ids, personality instructions or anyone's name. A reply still being written, or one that
 * failed, is left out: only finished text is shared (decision 043). A temporary chat is refused.
 */
async function snapshotOf(db: Db, who: Who, chatId: number): Promise<{ title: string; messages: SharedMessage[] }> {
  const chat = await findOwnChat(db, who.id, chatId);
  if (chat.temporary) throw new AppError("BAD_REQUEST", SHARE_MESSAGES.temporaryChat);
  const rows = await branchRows(db, chatId, shownLeaf(who.id, chatId), SNAPSHOT_MAX_MESSAGES);
  const shared = rows
    .filter((row) => (row.role === "user" || row.role === "assistant") && (row.status === "complete" || row.status === "incomplete"))
    .map(
      (row): SharedMessage => ({
        role: row.role as SharedMessage["role"],
        content: row.content,
        attachmentNames: row.attachments.map((a) => a.name),
        sources: row.citations.map((c) => ({ n: c.n, name: c.fileName, page: c.page })),
        model: row.role === "assistant" ? row.model : null,
        createdAt: row.createdAt.toISOString(),
      }),
    );
  if (shared.length === 0) throw new AppError("BAD_REQUEST", SHARE_MESSAGES.emptyChat);
  return { title: chat.title, messages: shared };
}

type ShareRow = typeof chatShares.$inferSelect;

function toLink(row: ShareRow, origin: string): ShareLink {
  return {
    token: row.token,
    url: `${origin}${sharePagePath(row.token)}`,
    chatId: row.chatId,
    title: row.title,
    showAuthor: row.showAuthor,
    messageCount: row.messages.length,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The caller's live link with this token (someone else's, a revoked or an unknown one: 404). */
const ownLive = (who: Who, token: string) => and(eq(chatShares.token, token), eq(chatShares.userId, who.id), isNull(chatShares.revokedAt));

type Options = { db: Db; who: Who };

/** POST /api/chats/:id/shares */
export async function createShare({
  db,
  who,
  chatId,
  showAuthor,
  origin,
}: Options & { chatId: number; showAuthor: boolean; origin: string }) {
  const snapshot = await snapshotOf(db, who, chatId);
  const token = newShareToken();
  await db.insert(chatShares).values({ token, userId: who.id, chatId, title: snapshot.title, messages: snapshot.messages, showAuthor });
  return { token, url: `${origin}${sharePagePath(token)}` };
}

/** GET /api/shares: the caller's live links, newest first, paged by id. */
export async function listShares({ db, who, query, origin }: Options & { query: ShareListQuery; origin: string }) {
  const rows = await db
    .select()
    .from(chatShares)
    .where(
      and(
        eq(chatShares.userId, who.id),
        isNull(chatShares.revokedAt),
        query.chatId === undefined ? undefined : eq(chatShares.chatId, query.chatId),
        query.cursor === undefined ? undefined : lt(chatShares.id, query.cursor),
      ),
    )
    .orderBy(desc(chatShares.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return { items: page.map((row) => toLink(row, origin)), nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** PUT /api/shares/:token: a new snapshot of the chat's branch shown now, and the show-my-name choice. */
export async function updateShare({
  db,
  who,
  token,
  showAuthor,
  origin,
}: Options & { token: string; showAuthor?: boolean | undefined; origin: string }) {
  const [share] = await db.select({ chatId: chatShares.chatId }).from(chatShares).where(ownLive(who, token));
  if (!share) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
  const snapshot = await snapshotOf(db, who, share.chatId);
  const [row] = await db
    .update(chatShares)
    .set({ title: snapshot.title, messages: snapshot.messages, updatedAt: new Date(), ...(showAuthor === undefined ? {} : { showAuthor }) })
    .where(ownLive(who, token))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
  return toLink(row, origin);
}

/** DELETE /api/shares/:token: revoked at once (every read goes to the database). */
export async function revokeShare({ db, who, token }: Options & { token: string }): Promise<void> {
  const revoked = await db.update(chatShares).set({ revokedAt: new Date() }).where(ownLive(who, token)).returning({ id: chatShares.id });
  if (revoked.length === 0) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
}

/**
 * A live link's snapshot, or null: revoked, unknown, or its owner disabled (a deleted owner's links are gone with the
 * account). Read from the database on every call, never cached, so a revoke is seen at once by every instance.
 */
export async function findSharedChat(db: Db, token: string): Promise<SharedChat | null> {
  const [row] = await db
    .select({ share: chatShares, name: users.name, username: users.username })
    .from(chatShares)
    .innerJoin(users, eq(users.id, chatShares.userId))
    .where(and(eq(chatShares.token, token), isNull(chatShares.revokedAt), eq(users.status, "active")));
  if (!row) return null;
  const { share } = row;
  return {
    token: share.token,
    title: share.title,
    author: share.showAuthor ? row.name?.trim() || row.username : null,
    messages: share.messages.map((m) => ({ ...m, sources: m.sources ?? [] })),
    createdAt: share.createdAt.toISOString(),
    updatedAt: share.updatedAt.toISOString(),
  };
}

/** GET /api/shares/:token */
export async function getSharedChat({ db, token }: { db: Db; token: string }): Promise<SharedChat> {
  const shared = await findSharedChat(db, token);
  if (!shared) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
  return shared;
}

/** The title of a continued chat: says where it came from, within the title's length. */
export function continuedTitle(title: string): string {
  return `${CONTINUED_PREFIX}${title}`.slice(0, TITLE_MAX);
}

/**
 * POST /api/shares/:token/continue: the snapshot copied into the caller's account as a new chat, its messages one
 * branch in the snapshot's order, on the shared chat's platform and model; its title says it came from a shared link.
 * Temporary when the caller's history is off, as any new chat.
 */
export async function continueShare({ db, who, token }: Options & { token: string }): Promise<{ chatId: number }> {
  const shared = await findSharedChat(db, token);
  if (!shared) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
  const [[source], [settings], platform] = await Promise.all([
    db
      .select({ aiPlatform: chats.aiPlatform, model: chats.model })
      .from(chats)
      .innerJoin(chatShares, eq(chatShares.chatId, chats.id))
      .where(eq(chatShares.token, token)),
    db.select({ saveHistory: userSettings.saveHistory }).from(userSettings).where(eq(userSettings.userId, who.id)),
    readPlatformSettings(db),
  ]);
  if (!source) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
  return db.transaction(async (tx) => {
    const [chat] = await tx
      .insert(chats)
      .values({
        userId: who.id,
        title: continuedTitle(shared.title),
        aiPlatform: source.aiPlatform,
        model: source.model,
        temporary: !platform.enableHistory || (settings ? !settings.saveHistory : false),
      })
      .returning({ id: chats.id });
    if (!chat) throw new Error("insert returned no row");
    let parentId: number | null = null;
    for (const message of shared.messages) {
      const [row]: { id: number }[] = await tx
        .insert(messages)
        .values({
          chatId: chat.id,
          userId: who.id,
          parentId,
          role: message.role,
          content: message.content,
          status: "complete",
          model: message.model,
          // Names only: the bytes were never shared.
          attachments: message.attachmentNames.map((name) => ({ name, size: 0, missing: true })),
        })
        .returning({ id: messages.id });
      if (!row) throw new Error("insert returned no row");
      parentId = row.id;
    }
    return { chatId: chat.id };
  });
}

/** GET /api/admin/shares: every link, newest first, with its owner and state. */
export async function listAllShares({
  db,
  query,
  origin,
}: {
  db: Db;
  query: { limit: number; cursor?: number | undefined };
  origin: string;
}) {
  const rows = await db
    .select({
      id: chatShares.id,
      token: chatShares.token,
      title: chatShares.title,
      createdAt: chatShares.createdAt,
      revokedAt: chatShares.revokedAt,
      ownerId: users.id,
      username: users.username,
      ownerStatus: users.status,
    })
    .from(chatShares)
    .innerJoin(users, eq(users.id, chatShares.userId))
    .where(query.cursor === undefined ? undefined : lt(chatShares.id, query.cursor))
    .orderBy(desc(chatShares.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const items = page.map(
    (row): AdminShare => ({
      token: row.token,
      url: `${origin}${sharePagePath(row.token)}`,
      title: row.title,
      owner: { id: row.ownerId, username: row.username },
      state: row.revokedAt ? "revoked" : row.ownerStatus === "active" ? "active" : "ownerDisabled",
      createdAt: row.createdAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
    }),
  );
  return { items, nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** DELETE /api/admin/shares/:token: any link (an already revoked one keeps its first date). */
export async function adminRevokeShare({ db, token }: { db: Db; token: string }): Promise<void> {
  const [row] = await db
    .update(chatShares)
    .set({ revokedAt: sql`coalesce(${chatShares.revokedAt}, now())` })
    .where(eq(chatShares.token, token))
    .returning({ id: chatShares.id });
  if (!row) throw new AppError("NOT_FOUND", SHARE_MESSAGES.notFound);
}
