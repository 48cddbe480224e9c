import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Message, SendReplyBody } from "../../../shared/contracts/chat.js";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { resolveModel } from "../ai-platforms/resolve-platform.js";
import { findGlobalPrompt, PROMPT_KEYS } from "../ai-prompts/service.js";
import { getSettings } from "../settings/service.js";
import type { SessionUser } from "../user/public-user.js";
import { toMessage } from "./chat-view.js";
import type { GenerationManager, LiveGeneration } from "./generation/generation-manager.js";
import { buildHistory } from "./history.js";
import { titleFrom } from "./messages-service.js";
import { personaFor, replyParams } from "./persona.js";
import { findOwnChat } from "./service.js";

export interface ReplyDeps {
  db: Db;
  platformDeps: PlatformDeps;
  generations: GenerationManager;
}

export interface StartedReply {
  userMessage: Message | null;
  assistantMessage: Message;
  generation: LiveGeneration;
}

const STILL_WRITING = "A reply is still being written in this chat. Stop it or wait for it to finish.";

async function assertNothingStreaming(db: Db, chatId: number): Promise<void> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.status, "streaming")))
    .limit(1);
  if (row) throw new AppError("CONFLICT", STILL_WRITING);
}

/** The user's preferences and the global system prompt; the caller caps maxTokens by the platform's. */
async function replyParameters(db: Db, userId: number) {
  const [settings, system] = await Promise.all([getSettings({ db, userId }), findGlobalPrompt(db, PROMPT_KEYS.chatSystem)]);
  return { temperature: Number(settings.temperature), maxTokens: settings.maxTokens, system };
}

/**
 * Spec order: the user's message is stored, then the AI is asked with the whole
 * conversation, then the reply is stored (as it grows), then the list refreshes.
 */
export async function startReply(
  deps: ReplyDeps,
  options: { user: SessionUser; chatId: number; input: SendReplyBody },
): Promise<StartedReply> {
  const { db, generations } = deps;
  const { user, chatId, input } = options;
  const userId = user.id;
  const [chat] = await Promise.all([findOwnChat(db, userId, chatId), assertNothingStreaming(db, chatId)]);
  const slug = input.platformSlug ?? chat.aiPlatform;
  const [resolved, settings] = await Promise.all([
    resolveModel({
      db,
      deps: deps.platformDeps,
      who: user,
      slug,
      modelId: input.model ?? (slug === chat.aiPlatform ? chat.model : null),
    }),
    replyParameters(db, userId),
  ]);
  const persona = await personaFor(db, user, chat.personalityId);
  const params = replyParams(settings, persona, resolved.platform.maxTokens);
  const attachments = (input.attachments ?? []).map((a) => ({ name: a.name, size: Buffer.byteLength(a.content), content: a.content }));

  const { userRow, assistantRow } = await db.transaction(async (tx) => {
    const [userRow] = await tx.insert(messages).values({ chatId, userId, role: "user", content: input.content, attachments }).returning();
    const [assistantRow] = await tx
      .insert(messages)
      .values({
        chatId,
        userId,
        role: "assistant",
        content: "",
        status: "streaming",
        platformSlug: slug,
        model: resolved.modelId,
        personalityName: persona?.name ?? null,
        generationOwner: generations.instanceId,
      })
      .returning();
    await tx
      .update(chats)
      .set({
        updatedAt: sql`now()`,
        aiPlatform: slug,
        model: resolved.modelId,
        ...(chat.title === "New Chat" ? { title: titleFrom(input.content) } : {}),
      })
      .where(eq(chats.id, chatId));
    return { userRow, assistantRow };
  });
  if (!userRow || !assistantRow) throw new Error("insert returned no row");

  const rows = await db.select().from(messages).where(eq(messages.chatId, chatId)).orderBy(asc(messages.id));
  const history = buildHistory(rows.filter((r) => r.id !== assistantRow.id));
  const generation = generations.begin({ messageId: assistantRow.id, chatId, resolved, history, ...params });
  return { userMessage: toMessage(userRow), assistantMessage: toMessage(assistantRow), generation };
}

/** Replaces the last reply with a new one (or answers a last user message that never got one). */
export async function regenerateReply(
  deps: ReplyDeps,
  options: { user: SessionUser; chatId: number; input: { platformSlug?: string; model?: string } },
): Promise<StartedReply> {
  const { db, generations } = deps;
  const { user, chatId, input } = options;
  const userId = user.id;
  const [chat] = await Promise.all([findOwnChat(db, userId, chatId), assertNothingStreaming(db, chatId)]);
  const [last] = await db.select().from(messages).where(eq(messages.chatId, chatId)).orderBy(desc(messages.id)).limit(1);
  if (!last) throw new AppError("BAD_REQUEST", "There is no message to answer yet.");
  const slug = input.platformSlug ?? last.platformSlug ?? chat.aiPlatform;
  const [resolved, settings] = await Promise.all([
    resolveModel({
      db,
      deps: deps.platformDeps,
      who: user,
      slug,
      modelId: input.model ?? (last.role === "assistant" ? last.model : chat.model),
    }),
    replyParameters(db, userId),
  ]);
  const persona = await personaFor(db, user, chat.personalityId);
  const params = replyParams(settings, persona, resolved.platform.maxTokens);

  const assistantRow = await db.transaction(async (tx) => {
    if (last.role === "assistant") await tx.delete(messages).where(eq(messages.id, last.id));
    const [row] = await tx
      .insert(messages)
      .values({
        chatId,
        userId,
        role: "assistant",
        content: "",
        status: "streaming",
        platformSlug: slug,
        model: resolved.modelId,
        personalityName: persona?.name ?? null,
        generationOwner: generations.instanceId,
      })
      .returning();
    await tx.update(chats).set({ updatedAt: sql`now()` }).where(eq(chats.id, chatId));
    return row;
  });
  if (!assistantRow) throw new Error("insert returned no row");
  const rows = await db.select().from(messages).where(eq(messages.chatId, chatId)).orderBy(asc(messages.id));
  const history = buildHistory(rows.filter((r) => r.id !== assistantRow.id));
  const generation = generations.begin({ messageId: assistantRow.id, chatId, resolved, history, ...params });
  return { userMessage: null, assistantMessage: toMessage(assistantRow), generation };
}

/** The reply being written in this chat, if any (for resume and Stop). */
export async function findStreamingReply(db: Db, userId: number, chatId: number) {
  await findOwnChat(db, userId, chatId);
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.status, "streaming")))
    .orderBy(desc(messages.id))
    .limit(1);
  return row;
}
