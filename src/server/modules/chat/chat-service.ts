import { and, desc, eq, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Chat, ChatListQuery, ChatPatch, CreateChatInput } from "../../../shared/contracts/chat.js";
import { INVALID_CURSOR, MAX_ID } from "../../../shared/contracts/common.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { chats, userSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isForeignKeyViolation } from "../../lib/db-errors.js";
import { assertReadsLibrary } from "../../lib/library-access.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { setCollections } from "../knowledge/collection-links.js";
import { adminChosenModel } from "../platform-settings/forced-model.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import type { McpToolAccess } from "../tools/tools-service.js";
import { assertUsableTools } from "../tools/tools-service.js";
import { chatCollectionIds, chatColumns, chatTutorLesson, toChat } from "./chat-view.js";
import { assertOwnFolder } from "./folders-service.js";
import { listedChat } from "./listed-chat.js";
import { personaFor } from "./persona.js";

export const CHAT_NOT_FOUND = "Chat not found";
const TEMPORARY_CHAT_LIFETIME = "1 day";

/** Someone else's chat and a missing one look the same (404), so ids cannot be probed. */
export async function findOwnChat(db: Db, userId: number, chatId: number) {
  const [row] = await db
    .select(chatColumns)
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
  return row;
}

export async function getChat(options: { db: Db; who: Who; chatId: number }): Promise<Chat> {
  return toChat(await findOwnChat(options.db, options.who.id, options.chatId));
}

/**
 * A chat is temporary when the user turned Save Chat History off, or when an admin turned chat history off
 * for everyone. With model selection off (Platform Settings) it gets the admin's model, whatever was sent. A
 * personality is set in the same call, on the rules of choosing one later (`personaFor`: the caller's own, else 404;
 * a plan with personalities, else 403), and with no model named its preferred one applies. Collections too, on the
 * rules of attaching them later (`updateChat`): a token needs files:read, each must be the caller's (else 404), and a
 * refused one leaves no chat behind (decision 066).
 */
export async function createChat(options: { db: Db; who: Who; platformDeps: PlatformDeps; input: CreateChatInput }): Promise<Chat> {
  const { db, input, who } = options;
  const userId = who.id;
  const collectionIds = input.collectionIds ?? [];
  if (input.collectionIds !== undefined) assertReadsLibrary(who);
  const [[settings], platform, persona] = await Promise.all([
    db.select({ saveHistory: userSettings.saveHistory }).from(userSettings).where(eq(userSettings.userId, userId)),
    readPlatformSettings(db),
    personaFor(db, who, input.personalityId),
  ]);
  const forced = await adminChosenModel({ db, deps: options.platformDeps, who, settings: platform });
  const preferred = persona?.platformSlug && input.model === undefined ? { slug: persona.platformSlug, model: persona.model } : null;
  const chosen = forced ?? preferred ?? { slug: input.aiPlatform, model: input.model ?? null };
  const store = async (tx: DbOrTx) => {
    const [row] = await tx
      .insert(chats)
      .values({
        userId,
        title: input.title,
        aiPlatform: chosen.slug,
        model: chosen.model,
        personalityId: persona?.id ?? null,
        // A personality carries a default tool set (issue 34); each reply still offers only what the user may use then.
        tools: persona?.tools ?? [],
        temporary: !platform.enableHistory || (settings ? !settings.saveHistory : false),
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    if (collectionIds.length > 0)
      await setCollections(tx, { table: "chat_collections", key: "chat_id", id: row.id }, userId, collectionIds);
    return row;
  };
  // Without collections one statement, as before; with them one transaction, so a refused collection stores no chat.
  const row = await (collectionIds.length > 0 ? db.transaction(store) : store(db)).catch(async (error: unknown) => {
    // The personality was deleted since it was read: the same 404 as if it had been gone before.
    if (persona && isForeignKeyViolation(error)) await personaFor(db, who, persona.id);
    throw error;
  });
  return toChat({ ...row, collectionIds, tutorLesson: null });
}

// The cursor carries the exact timestamp in microseconds: JavaScript dates stop at milliseconds.
const encodeCursor = (us: string, id: number) => `${us}_${id}`;
// Microseconds since 1970, within the years a stored time can have (an import may bring any from 0000 to 9999):
// negative before 1970. Beyond these PostgreSQL's time arithmetic would overflow.
const CURSOR_MIN_US = -100_000_000_000_000_000n;
const CURSOR_MAX_US = 1_000_000_000_000_000_000n;
function decodeCursor(cursor: string): { us: string; id: number } | null {
  const match = /^(-?\d{1,19})_(\d{1,10})$/.exec(cursor);
  const id = Number(match?.[2]);
  if (!match?.[1] || !(id <= MAX_ID)) return null;
  const us = BigInt(match[1]);
  return us >= CURSOR_MIN_US && us <= CURSOR_MAX_US ? { us: us.toString(), id } : null;
}

/** Which chats a sidebar section lists: one folder's, those in no folder, pinned or not. */
function sectionFilter(query: Pick<ChatListQuery, "folderId" | "pinned">): SQL | undefined {
  const folder =
    query.folderId === undefined ? undefined : query.folderId === "none" ? isNull(chats.folderId) : eq(chats.folderId, query.folderId);
  const pinned = query.pinned === undefined ? undefined : query.pinned === "true" ? isNotNull(chats.pinnedAt) : isNull(chats.pinnedAt);
  return and(folder, pinned);
}

/**
 * One indexed range scan per page: the user's listed chats, most recently active first (pinned ones: most
 * recently pinned first), optionally one sidebar section of them (`folderId`, `pinned`). A chat comes into
 * being with its first message: one without any (just created) is never listed (`listedChat`, a column of the row).
 *
 * The section's chats are put in order and cut to the page first (`offset 0` keeps that subquery apart, so it is not
 * merged into the outer one); only the page's rows then get their collections and tutor lesson.
 */
export async function listChats(options: { db: Db; who: Who } & ChatListQuery) {
  const { db, limit } = options;
  const userId = options.who.id;
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  if (options.cursor && !after) throw new AppError("BAD_REQUEST", INVALID_CURSOR);
  if (typeof options.folderId === "number") await assertOwnFolder(db, userId, options.folderId);
  // Pinned chats keep the order they were pinned in; everything else follows activity.
  const orderAt = options.pinned === "true" ? sql`${chats.pinnedAt}` : sql`${chats.updatedAt}`;
  // Named "chats" as the table is, so the chat's columns read from it (`chatCollectionIds`, `chatTutorLesson` name
  // `chats.id`): they are worked out for the page's rows only, after the limit.
  const inOrder = db
    .select({
      id: chats.id,
      title: chats.title,
      aiPlatform: chats.aiPlatform,
      model: chats.model,
      temporary: chats.temporary,
      personalityId: chats.personalityId,
      folderId: chats.folderId,
      pinnedAt: chats.pinnedAt,
      tools: chats.tools,
      createdAt: chats.createdAt,
      updatedAt: chats.updatedAt,
      tutorLessonId: chats.tutorLessonId,
      orderAt: sql<Date>`${orderAt}`.as("order_at"),
    })
    .from(chats)
    .where(
      and(
        eq(chats.userId, userId),
        listedChat,
        sectionFilter(options),
        after
          ? sql`(${orderAt}, ${chats.id}) < (timestamptz 'epoch' + (${after.us} || ' microseconds')::interval, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(orderAt), desc(chats.id))
    .limit(limit + 1)
    // A literal `offset 0` (Drizzle leaves out an offset of the number 0): the fence that keeps this order apart.
    .offset(sql`0` as unknown as number)
    .as("chats");
  const { orderAt: inOrderAt, tutorLessonId: _lesson, ...columns } = inOrder._.selectedFields;
  const rows = await db
    .select({
      ...columns,
      collectionIds: chatCollectionIds,
      tutorLesson: chatTutorLesson,
      orderUs: sql<string>`(extract(epoch from ${inOrderAt}) * 1000000)::bigint::text`,
    })
    .from(inOrder)
    .orderBy(desc(inOrderAt), desc(inOrder.id));
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toChat), nextCursor: rows.length > limit && last ? encodeCursor(last.orderUs, last.id) : null };
}

/**
 * Rename, change model, or pick a personality (which also switches to its preferred model, if it has one);
 * move into one of the caller's folders (or out), pin or unpin. None of these counts as activity: the chat
 * keeps its place by `updated_at`. With model selection off (Platform Settings) the platform and model stay.
 */
export async function updateChat(options: { db: Db; who: Who; chatId: number; input: ChatPatch; mcp: McpToolAccess }): Promise<Chat> {
  const { db, who, chatId, input } = options;
  // Attaching collections gives every reply of the chat their passages: a token needs files:read (decision 056).
  if (input.collectionIds !== undefined) assertReadsLibrary(who);
  const [persona, platform] = await Promise.all([
    input.personalityId ? personaFor(db, who, input.personalityId) : null,
    readPlatformSettings(db),
    input.tools ? assertUsableTools({ who, mcp: options.mcp, ids: input.tools }) : null,
  ]);
  const selectable = platform.enableModelSelection;
  const change: PgUpdateSetSource<typeof chats> = {};
  if (input.title !== undefined) change.title = input.title;
  if (selectable && input.aiPlatform !== undefined) change.aiPlatform = input.aiPlatform;
  if (selectable && input.model !== undefined) change.model = input.model;
  if (input.personalityId !== undefined) change.personalityId = input.personalityId;
  if (input.folderId !== undefined) change.folderId = input.folderId;
  if (input.pinned !== undefined) change.pinnedAt = input.pinned ? sql`now()` : null;
  if (input.tools !== undefined) change.tools = input.tools;
  const collectionIds = input.collectionIds;
  if (selectable && persona?.platformSlug && input.aiPlatform === undefined) {
    change.aiPlatform = persona.platformSlug;
    change.model = persona.model;
  }
  if (Object.keys(change).length === 0 && collectionIds === undefined) return getChat({ db, who, chatId });
  const found = await db.transaction(async (tx) => {
    // The folder is locked until the move is stored, so a parallel delete of it cannot break the reference.
    if (input.folderId) await assertOwnFolder(tx, who.id, input.folderId, true);
    const locked = await tx.execute(sql`select id from chats where id = ${chatId} and user_id = ${who.id} for update`);
    if (locked.rows.length === 0) return false;
    if (Object.keys(change).length > 0) await tx.update(chats).set(change).where(eq(chats.id, chatId));
    if (collectionIds !== undefined)
      await setCollections(tx, { table: "chat_collections", key: "chat_id", id: chatId }, who.id, collectionIds);
    return true;
  });
  if (!found) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
  return getChat({ db, who, chatId });
}

/** The chat and its messages (owner only); a reply still running is stopped first, by `deleteChat`. */
export async function deleteChatRow(db: Db, userId: number, chatId: number): Promise<void> {
  const deleted = await db
    .delete(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .returning({ id: chats.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
}

/** Temporary chats the browser could not delete (closed tab, crash) go after a day. */
export async function sweepTemporaryChats(db: Db): Promise<void> {
  await db
    .delete(chats)
    .where(and(eq(chats.temporary, true), lt(chats.updatedAt, sql`now() - interval '${sql.raw(TEMPORARY_CHAT_LIFETIME)}'`)));
}
