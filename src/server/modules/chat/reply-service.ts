import { and, desc, eq, sql } from "drizzle-orm";
import { retitle } from "../../../shared/chat-title.js";
import type { Message, RegenerateInput, SendReplyInput } from "../../../shared/contracts/chat.js";
import { claimAiSlot } from "../../ai/usage-limits.js";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/db-errors.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { resolveModel } from "../ai-platforms/resolve-platform.js";
import { adminChosenModel } from "../platform-settings/forced-model.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

import { type ChatRow, type MessageRow, toMessage } from "./chat-view.js";
import type { GenerationManager, LiveGeneration } from "./generation/generation-manager.js";
import { buildHistory, HISTORY_MAX_MESSAGES } from "./history.js";
import { personaFor, replyParams, userReplyDefaults } from "./persona.js";
import { CHAT_NOT_FOUND } from "./service.js";

/** What starting a reply needs: the caller, the chat, and where replies run. */
export interface ReplyOptions {
  db: Db;
  who: Who;
  platformDeps: PlatformDeps;
  generations: GenerationManager;
  chatId: number;
  /** Replies and course runs one user may have running at once (AI_MAX_CONCURRENT_PER_USER). */
  maxRunning: number;
}

export interface StartedReply {
  userMessage: Message | null;
  assistantMessage: Message;
  generation: LiveGeneration;
}

const STILL_WRITING = "A reply is still being written in this chat. Stop it or wait for it to finish.";
const CHANGED = "This chat changed while the reply was being asked for. Please try again.";

/** The chat (owner only, else 404) and, in the same query, whether a reply is still being written (409). */
async function loadChatForReply(db: Db, userId: number, chatId: number): Promise<ChatRow> {
  const [row] = await db
    .select({
      chat: chats,
      // The id as a parameter: a column reference here would be read as the subquery's own messages.id.
      streaming: sql<boolean>`exists(select 1 from messages m where m.chat_id = ${chatId} and m.status = 'streaming')`,
    })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
  if (row.streaming) throw new AppError("CONFLICT", STILL_WRITING);
  return row.chat;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Inside the transaction that stores a new reply: the user's AI slot (429 beyond the limit), then the chat's
 * row lock, so racing sends and regenerates of one chat run this check one after the other and only the
 * first finds no reply being written (409 for the others). The id of the chat's last message is returned.
 */
async function lockChatForReply(tx: Tx, options: ReplyOptions): Promise<number | null> {
  await claimAiSlot(tx, options.who.id, options.maxRunning);
  const locked = await tx.execute(sql`select id from chats where id = ${options.chatId} and user_id = ${options.who.id} for update`);
  if (locked.rows.length === 0) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
  const [last] = await tx
    .select({ id: messages.id, status: messages.status })
    .from(messages)
    .where(eq(messages.chatId, options.chatId))
    .orderBy(desc(messages.id))
    .limit(1);
  const [streaming] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.chatId, options.chatId), eq(messages.status, "streaming")))
    .limit(1);
  if (streaming) throw new AppError("CONFLICT", STILL_WRITING);
  return last?.id ?? null;
}

/** The newest messages of the chat, oldest first (the owner is part of the filter). */
async function recentMessages(db: Db, userId: number, chatId: number): Promise<MessageRow[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.userId, userId)))
    .orderBy(desc(messages.id))
    .limit(HISTORY_MAX_MESSAGES);
  return rows.reverse();
}

/**
 * Everything a reply needs before anything is written; independent reads run together. With model
 * selection off (Platform Settings) the admin's model answers, whatever the client or the chat names.
 */
async function prepareReply(options: ReplyOptions, pick: (chat: ChatRow, prior: MessageRow[]) => { slug: string; model: string | null }) {
  const { db, who, chatId } = options;
  const [chat, base, prior, forced] = await Promise.all([
    loadChatForReply(db, who.id, chatId),
    userReplyDefaults(db, who.id),
    recentMessages(db, who.id, chatId),
    readPlatformSettings(db).then((settings) => adminChosenModel({ db, deps: options.platformDeps, who, settings })),
  ]);
  const picked = pick(chat, prior);
  const { slug, model } = forced ?? picked;
  const [resolved, persona] = await Promise.all([
    resolveModel({ db, deps: options.platformDeps, who, slug, modelId: model }),
    personaFor(db, who, chat.personalityId),
  ]);
  const params = replyParams(base, persona, resolved.platform.maxTokens);
  const reply = {
    chatId,
    userId: who.id,
    role: "assistant",
    content: "",
    status: "streaming",
    platformSlug: slug,
    model: resolved.modelId,
    personalityName: persona?.name ?? null,
    generationOwner: options.generations.instanceId,
  } satisfies typeof messages.$inferInsert;
  return { chat, prior, resolved, params, reply };
}

/**
 * Spec order: the user's message is stored, then the AI is asked with the whole
 * conversation, then the reply is stored (as it grows), then the list refreshes.
 * The user's message and the empty reply go in with one statement; the chat's
 * timestamp and title are updated once the provider has been asked.
 */
export async function startReply(options: ReplyOptions & { input: SendReplyInput }): Promise<StartedReply> {
  const { db, who, generations, chatId, input } = options;
  const { chat, prior, resolved, params, reply } = await prepareReply(options, (c) => {
    const slug = input.platformSlug ?? c.aiPlatform;
    return { slug, model: input.model ?? (slug === c.aiPlatform ? c.model : null) };
  });
  const attachments = input.attachments.map((a) => ({ name: a.name, size: Buffer.byteLength(a.content), content: a.content }));
  const inserted = await db
    .transaction(async (tx) => {
      await lockChatForReply(tx, options);
      return tx
        .insert(messages)
        .values([{ chatId, userId: who.id, role: "user", content: input.content, attachments }, reply])
        .returning();
    })
    .catch((error) => {
      throw isUniqueViolation(error) ? new AppError("CONFLICT", STILL_WRITING) : error;
    });
  const [userRow, assistantRow] = inserted.sort((a, b) => a.id - b.id);
  if (!userRow || !assistantRow) throw new Error("insert returned no row");

  const generation = generations.begin({
    messageId: assistantRow.id,
    message: toMessage(assistantRow),
    chatId,
    resolved,
    history: buildHistory([...prior, userRow]),
    ...params,
  });
  await db
    .update(chats)
    .set({
      updatedAt: sql`now()`,
      aiPlatform: reply.platformSlug,
      model: resolved.modelId,
      ...retitle(chat.title, input.content),
    })
    .where(eq(chats.id, chatId));
  return { userMessage: toMessage(userRow), assistantMessage: toMessage(assistantRow), generation };
}

/** Replaces the last reply with a new one (or answers a last user message that never got one). */
export async function regenerateReply(options: ReplyOptions & { input: RegenerateInput }): Promise<StartedReply> {
  const { db, generations, chatId, input } = options;
  const { prior, resolved, params, reply } = await prepareReply(options, (chat, rows) => {
    const last = rows.at(-1);
    if (!last) throw new AppError("BAD_REQUEST", "There is no message to answer yet.");
    const slug = input.platformSlug ?? last.platformSlug ?? chat.aiPlatform;
    return { slug, model: input.model ?? (last.role === "assistant" ? last.model : chat.model) };
  });
  const last = prior.at(-1);
  const replaced = last?.role === "assistant" ? last : undefined;
  // Racing regenerates (and sends) of this chat queue on its row lock: the first replaces the reply, the
  // others find it being written, or the chat changed since they read it (409), so one message keeps one reply.
  const assistantRow = await db
    .transaction(async (tx) => {
      const lastId = await lockChatForReply(tx, options);
      if (lastId !== (last?.id ?? null)) throw new AppError("CONFLICT", CHANGED);
      if (replaced) await tx.delete(messages).where(eq(messages.id, replaced.id));
      const [row] = await tx.insert(messages).values(reply).returning();
      await tx.update(chats).set({ updatedAt: sql`now()` }).where(eq(chats.id, chatId));
      return row;
    })
    .catch((error) => {
      throw isUniqueViolation(error) ? new AppError("CONFLICT", STILL_WRITING) : error;
    });
  if (!assistantRow) throw new Error("insert returned no row");
  const history = buildHistory(replaced ? prior.slice(0, -1) : prior);
  const generation = generations.begin({
    messageId: assistantRow.id,
    message: toMessage(assistantRow),
    chatId,
    resolved,
    history,
    ...params,
  });
  return { userMessage: null, assistantMessage: toMessage(assistantRow), generation };
}
