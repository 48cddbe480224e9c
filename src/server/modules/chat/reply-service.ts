import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { retitle } from "../../../shared/chat-title.js";
import type { EditMessageInput, Message, RegenerateInput, SendReplyInput } from "../../../shared/contracts/chat.js";
import { PAUSED_LEFT } from "../../../shared/contracts/paused-reply.js";
import type { HoldSize } from "../../ai/allowance.js";
import type { TextMessage } from "../../ai/generate.js";
import type { ProviderFailureLog } from "../../ai/provider-error.js";
import { assertAiSlot, refusalOf, type SlotRow } from "../../ai/usage-limits.js";
import type { Db } from "../../db/client.js";
import { preparedPerDb } from "../../db/prepared.js";
import { chats, messages, personalities, type StoredAttachment, userSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation, startRefusal } from "../../lib/db-errors.js";
import { assertReadsLibrary } from "../../lib/library-access.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { type ResolvedModel, resolveModel } from "../ai-platforms/resolve-platform.js";
import { globalPromptColumn, PROMPT_KEYS, promptText } from "../ai-prompts/ai-prompts-service.js";
import type { FileStore } from "../knowledge/file-store.js";
import type { VectorStore } from "../knowledge/retrieval/vector-store.js";
import { keepSentFiles } from "../knowledge/unsent-files.js";
import { adminChosenModel } from "../platform-settings/forced-model.js";
import { modelSelectionColumns, modelSelectionOf, readPlatformSettings } from "../platform-settings/reader.js";
import { replySettingColumns, replySettingsOf } from "../settings/settings-service.js";
import { type McpToolAccess, runnableTools } from "../tools/tools-service.js";
import { branchRows, shownBranchRows } from "./branch-tree.js";
import { CHAT_NOT_FOUND, findOwnChat } from "./chat-service.js";
import { type ChatRow, type MessageRow, messageRowFromJson, toMessage } from "./chat-view.js";
import type { GenerationManager, GenerationRequest, LiveGeneration, ReplyTools } from "./generation/generation-manager.js";
import { buildHistory, HISTORY_MAX_MESSAGES } from "./history.js";
import { type LessonTutor, withTutor } from "./lesson-tutor.js";
import { MESSAGE_NOT_FOUND, STILL_WRITING } from "./messages-service.js";
import { endPausedReplies } from "./paused-reply.js";
import { personaFor, replyParams } from "./persona.js";
import { assertModelReadsImages, attachFiles, branchFiles, type GivenSource, imagesOf, materialFor } from "./reply-material.js";
import { DENIED_RESULT } from "./tool-steps.js";

/** What starting a reply needs: the caller, the chat, and where replies run. */
export interface ReplyOptions {
  db: Db;
  who: Who;
  platformDeps: PlatformDeps;
  generations: GenerationManager;
  chatId: number;
  /** Replies, course runs and /v1 calls one user may have running at once (AI_MAX_CONCURRENT_PER_USER). */
  maxRunning: number;
  /** The request's logger: a provider failure of its reply is logged with its request id. */
  log: ProviderFailureLog;
  /** Where library files' bytes are (images go to the model as image parts). */
  fileStore: FileStore;
  /** pgvector where present (retrieval by meaning as well as by words). */
  vectors: VectorStore;
  /** A tutor chat's lesson and course passages (the courses module's, wired in app.ts; decision 039). */
  tutor: LessonTutor;
  /** The MCP servers' tools (issue 34; the mcp-servers module's, wired in app.ts). */
  mcp: McpToolAccess;
}

export interface StartedReply {
  userMessage: Message | null;
  assistantMessage: Message;
  generation: LiveGeneration;
}

/** The reply's own columns; the rest (chat, user, parent, role, status) `start_reply` sets. */
type NewReply = { platformSlug: string; model: string; personalityName: string | null; generationOwner: string };

const CHANGED = "This chat changed while the reply was being asked for. Please try again.";
const ONLY_YOURS = "Only your own messages can be edited. To get another reply, use Regenerate.";

const chatForReply = preparedPerDb((db) => {
  const [userId, chatId] = [sql.placeholder("userId"), sql.placeholder("chatId")];
  return db
    .select({
      chat: chats,
      personality: personalities,
      // The id as a parameter: a column reference here would be read as the subquery's own messages.id.
      streaming: sql<boolean>`exists(select 1 from messages m where m.chat_id = ${chatId} and m.status = 'streaming')`,
      settings: replySettingColumns,
      system: globalPromptColumn(PROMPT_KEYS.chatSystem),
      // The collections every reply searches: the chat's and its personality's, the owner's only (issue 30).
      collectionIds: sql<number[] | null>`(select array_agg(distinct x.collection_id) from (
          select cc.collection_id from chat_collections cc where cc.chat_id = ${chatId}
          union all
          select pc.collection_id from personality_collections pc join chats pcc on pcc.personality_id = pc.personality_id
          where pcc.id = ${chatId}
        ) x join knowledge_collections kc on kc.id = x.collection_id and kc.user_id = ${userId})`,
      ...modelSelectionColumns,
    })
    .from(chats)
    .leftJoin(personalities, and(eq(personalities.id, chats.personalityId), eq(personalities.userId, userId)))
    .leftJoin(userSettings, eq(userSettings.userId, chats.userId))
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .limit(1)
    .prepare("chat_for_reply");
});

/**
 * The chat (owner only, else 404) and, in the same query (one round trip, issue 15, prepared): whether a reply is still
 * being written (409), the chat's personality when it is the owner's (null otherwise; `personaFor` says what
 * that means), and what the reply starts from besides: the owner's preferences, the global `chat-system` prompt
 * and the model-selection settings. Each of those is read by its own module's columns.
 */
async function loadChatForReply(db: Db, userId: number, chatId: number) {
  const [row] = await chatForReply(db).execute({ userId, chatId });
  if (!row) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
  if (row.streaming) throw new AppError("CONFLICT", STILL_WRITING);
  return {
    chat: row.chat,
    personality: row.personality,
    base: { ...replySettingsOf(row.settings), system: promptText(row.system) },
    modelSelection: modelSelectionOf(row),
    collectionIds: (row.collectionIds ?? []).map(Number),
  };
}

/** What a reply's start writes besides its reply: the user's message of a send or an edit, and the chat's new title. */
type UserMessage = { content: string; attachments: StoredAttachment[]; title: string | null };

type Started = { verdict: "ok"; user: Record<string, unknown> | null; reply: Record<string, unknown>; hold: number };
type Refused = { verdict: "running" | "tokens" | "messages" | "held"; slot: SlotRow };

/**
 * A reply's start, in one statement (decision 025): the database's `start_reply` claims the user's AI slot and holds
 * the reply's most (`hold`; 429 beyond a limit; the rule is the database's, migration 0016, decision 028), then locks
 * the chat's row, so racing sends, edits, regenerates and branch switches of one chat run their checks one after the
 * other and only the first finds no reply being written (409 for the others, and the unique index on streaming rows
 * behind it). With `expectedLeaf` the leaf shown must still be the one the history was read from (409 if another tab
 * moved it). It then stores the user's message after `parentId` (a send or an edit), the empty streaming reply after
 * it (or after `parentId`), and the chat's leaf, time and, with a user's message, platform, model and title; a
 * refusal writes nothing.
 */
async function startInDatabase(
  options: ReplyOptions,
  start: { expectedLeaf: number | null | undefined; parentId: number | null; user: UserMessage | null; reply: NewReply; hold: HoldSize },
): Promise<{ user: MessageRow | null; reply: MessageRow; holdId: number }> {
  const { db, who, chatId, maxRunning } = options;
  const { user, reply, hold } = start;
  const checkLeaf = start.expectedLeaf !== undefined;
  const result = await db
    .execute(
      sql`select start_reply(${who.id}, ${chatId}, ${maxRunning}::int, ${checkLeaf}, ${start.expectedLeaf ?? null}::int,
        ${start.parentId}::int, ${user?.content ?? null}::text, ${JSON.stringify(user?.attachments ?? [])}::jsonb,
        ${reply.platformSlug}::text, ${reply.model}::text, ${reply.personalityName}::text, ${reply.generationOwner}::text,
        ${user?.title ?? null}::text, ${hold.tokens}::int, ${hold.promptEstimate}::int) as started`,
    )
    .catch((error: unknown) => {
      // Refused after the claim: raised by the database, so nothing it did (the day's count) is kept.
      const refusal = startRefusal(error);
      if (refusal === "not-found") throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
      if (refusal === "streaming") throw new AppError("CONFLICT", STILL_WRITING);
      if (refusal === "changed") throw new AppError("CONFLICT", CHANGED);
      return asConflict(error);
    });
  const started = (result.rows[0] as { started: Started | Refused } | undefined)?.started;
  if (!started) throw new Error("start_reply returned no row");
  if (started.verdict !== "ok") throw refusalOf(started.slot, maxRunning) ?? new Error(`start_reply refused: ${started.verdict}`);
  return { user: started.user && messageRowFromJson(started.user), reply: messageRowFromJson(started.reply), holdId: started.hold };
}

/** The newest messages of the branch ending at `start` (the branch shown by default, a prepared query), oldest first. */
async function recentMessages(db: Db, userId: number, chatId: number, start?: SQL): Promise<MessageRow[]> {
  return start ? branchRows(db, chatId, start, HISTORY_MAX_MESSAGES) : shownBranchRows(db, userId, chatId, HISTORY_MAX_MESSAGES);
}

/**
 * Everything a reply needs before anything is written, in one round of three reads run together (the chat with
 * its personality, preferences, prompt and settings; the AI slot; the history), the platform from the cache. With model
 * selection off (Platform Settings) the admin's model answers, whatever the client or the chat names.
 * `start`: where the conversation the model sees ends (the leaf shown unless said).
 */
async function prepareReply(
  options: ReplyOptions,
  pick: (chat: ChatRow, prior: MessageRow[]) => { slug: string; model: string | null },
  start?: SQL,
  extraTools?: readonly string[],
) {
  const { db, who, chatId } = options;
  const [{ chat, personality, base, modelSelection, collectionIds }, , prior] = await Promise.all([
    loadChatForReply(db, who.id, chatId),
    // Over a limit, no provider call starts (the claim in the transaction is what holds under races).
    assertAiSlot(db, who.id, options.maxRunning),
    recentMessages(db, who.id, chatId, start),
  ]);
  const forced = await adminChosenModel({ db, deps: options.platformDeps, who, settings: modelSelection });
  const picked = pick(chat, prior);
  const { slug, model } = forced ?? picked;
  const persona = await personaFor(db, who, chat.personalityId, personality);
  const resolved = await resolveModel({ db, deps: options.platformDeps, who, slug, modelId: model });
  const params = replyParams(base, persona, resolved.platform.maxTokens);
  const reply: NewReply = {
    platformSlug: slug,
    model: resolved.modelId,
    personalityName: persona?.name ?? null,
    generationOwner: options.generations.instanceId,
  };
  const tools = await replyTools(options, [...new Set([...chat.tools, ...(extraTools ?? [])])]);
  return { chat, prior, resolved, params, reply, collectionIds, tools };
}

/**
 * The tools a reply of this chat may call (issue 34, decision 046): the chat's set, less what the caller may no
 * longer use, with the platform's bounds. Read only when the chat has tools, so a plain reply reads nothing more.
 */
export async function replyTools(options: ReplyOptions, ids: readonly string[]): Promise<ReplyTools | undefined> {
  if (ids.length === 0) return undefined;
  const { db, who, mcp } = options;
  const retrieval = { db, vectors: options.vectors, platformDeps: options.platformDeps };
  const [tools, settings] = await Promise.all([runnableTools({ who, mcp, retrieval, ids }), readPlatformSettings(db)]);
  return { tools, maxSteps: settings.toolMaxSteps, timeoutMs: settings.toolCallTimeoutSeconds * 1000 };
}

/**
 * What the reply is given of the user's material (issue 30, decision 037), added to its system prompt and its last
 * user turn: read only when the branch has library files or the chat collections, so a plain reply reads nothing more.
 * A lesson's tutor chat (issue 31) is also given its lesson and the course's passages, the reader's right to the lesson
 * checked again first. Refuses images for a model that cannot read them (400) before anything is stored.
 */
async function withMaterial(
  options: ReplyOptions,
  prepared: { chat: ChatRow; prior: MessageRow[]; resolved: ResolvedModel; collectionIds: number[] },
  turn: { content: string; attachments: StoredAttachment[] },
  history: TextMessage[],
  system: string | undefined,
) {
  const { db, who, fileStore } = options;
  await assertModelReadsImages({ db, deps: options.platformDeps, who }, prepared.resolved, turn.attachments);
  const files = branchFiles([...prepared.prior, { role: "user", attachments: turn.attachments }]);
  const lessonId = prepared.chat.tutorLessonId;
  if (files.length === 0 && prepared.collectionIds.length === 0 && lessonId === null) return { history, system, sources: [] };
  const images = imagesOf(turn.attachments);
  const retrieval = { db, vectors: options.vectors, platformDeps: options.platformDeps };
  const [own, tutor] = await Promise.all([
    materialFor({ db, fileStore, who, retrieval }, { query: turn.content, files, images, collectionIds: prepared.collectionIds }),
    lessonId === null ? null : options.tutor({ db, who, lessonId, query: turn.content, retrieval }),
  ]);
  const material = tutor ? withTutor(tutor, own) : own;
  const last = history.at(-1);
  if (last?.role === "user" && material.images.length) history[history.length - 1] = { ...last, images: material.images };
  const withBlock = material.block ? [system, material.block].filter(Boolean).join("\n\n") : system;
  return { history, system: withBlock, sources: material.sources };
}

type Prepared = Awaited<ReturnType<typeof prepareReply>>;
type Given = { history: TextMessage[]; system: string | undefined; sources: GivenSource[] };

/** What the provider is asked for a reply prepared so, given its conversation and material. */
function generationRequest(options: ReplyOptions, prepared: Prepared, given: Given): GenerationRequest {
  const { resolved, params, tools } = prepared;
  return { chatId: options.chatId, resolved, log: options.log, ...params, ...given, tools };
}

/**
 * The request of a reply to the message that ends `kept` (a regenerate; a paused reply going on after its call's
 * answer): the conversation up to it, and that message's files (the same sources, the same images for this model).
 */
async function answering(options: ReplyOptions, prepared: Prepared, kept: MessageRow[]): Promise<GenerationRequest> {
  const answered = kept.at(-1);
  const turn =
    answered?.role === "user" ? { content: answered.content, attachments: answered.attachments } : { content: "", attachments: [] };
  const given = await withMaterial(options, { ...prepared, prior: kept.slice(0, -1) }, turn, buildHistory(kept), prepared.params.system);
  return generationRequest(options, prepared, given);
}

/**
 * A new reply started in the chat (a send, an edit, a regenerate) ends the one paused on a tool call, if any
 * (decision 050): only once the new one is stored, so a refused start leaves the paused reply answerable. A failure
 * here leaves it paused (still answerable once the new reply ends), never fails the reply that started.
 */
async function endPausedAfterStart(options: ReplyOptions): Promise<void> {
  await endPausedReplies(options.db, options.chatId, PAUSED_LEFT).catch((err: unknown) => {
    options.log.warn({ err, chatId: options.chatId }, "ending the chat's paused reply failed");
  });
}

const asConflict = (error: unknown) => {
  throw isUniqueViolation(error) ? new AppError("CONFLICT", STILL_WRITING) : error;
};

type UserText = { content: string; platformSlug?: string | undefined; model?: string | undefined };

/**
 * The order, as the user sees it: the user's message is stored, then the AI is asked with the conversation of the
 * branch, then the reply is stored (as it grows), then the list refreshes. The provider's request is built while the
 * start is stored and leaves once it is (decision 057): a refused start never reaches the provider. The user's message follows
 * the leaf shown (a send) or takes the place of `edited` as its sibling (an edit); the reply follows it and
 * becomes the leaf shown; the chat's leaf, time and title change in the same transaction.
 */
async function storeAndAnswer(
  options: ReplyOptions,
  input: UserText,
  attachmentsOf: () => StoredAttachment[] | Promise<StoredAttachment[]>,
  edited: MessageRow | null,
) {
  const { generations } = options;
  const start = edited ? sql`${edited.parentId}` : undefined;
  // The files are checked (the caller's, ready) while the chat is read: a refusal stores nothing.
  const [prepared, attachments] = await Promise.all([
    prepareReply(
      options,
      (c) => {
        const slug = input.platformSlug ?? c.aiPlatform;
        return { slug, model: input.model ?? (slug === c.aiPlatform ? c.model : null) };
      },
      start,
    ),
    attachmentsOf(),
  ]);
  const { chat, prior, params, reply } = prepared;
  const given = await withMaterial(
    options,
    prepared,
    { content: input.content, attachments },
    buildHistory([...prior, { role: "user", content: input.content, attachments }]),
    params.system,
  );
  // The provider's request (with the history as it will be stored) is built while the start is stored, and leaves after it.
  const { generation, written } = await generations.begin({
    ...generationRequest(options, prepared, given),
    write: async (hold) => {
      const { title } = retitle(chat.title, input.content);
      const user = { content: input.content, attachments, title: title ?? null };
      // A send follows the leaf it read; an edit takes the place of `edited`, beside it.
      const parentId = edited ? edited.parentId : (prior.at(-1)?.id ?? null);
      const started = await startInDatabase(options, { expectedLeaf: edited ? undefined : parentId, parentId, user, reply, hold });
      if (!started.user) throw new Error("start_reply stored no user message");
      return [started.user, started.reply, started.holdId] as const;
    },
    stored: ([, assistant, holdId]) => ({ messageId: assistant.id, message: toMessage(assistant), holdId }),
  });
  await endPausedAfterStart(options);
  // The files the message took are the library's now, no longer a composer's unsent ones (decision 068); should this
  // fail, the sweep keeps them anyway, since a stored message names them.
  await keepSentFiles(
    options.db,
    options.who.id,
    attachments.flatMap((a) => (a.fileId === undefined ? [] : [a.fileId])),
  ).catch((error: unknown) => options.log.warn({ err: error }, "keeping a message's files failed"));
  const [userRow, assistantRow] = written;
  return { userMessage: toMessage(userRow), assistantMessage: toMessage(assistantRow), generation };
}

/** POST /api/chats/{id}/reply: the user's message after the leaf shown, and its reply. */
export async function startReply(options: ReplyOptions & { input: SendReplyInput }): Promise<StartedReply> {
  const { input } = options;
  const pasted = input.attachments.map((a) => ({ name: a.name, size: Buffer.byteLength(a.content), content: a.content }));
  return storeAndAnswer(options, input, async () => [...pasted, ...(await attachFiles(options.db, options.who, input.fileIds))], null);
}

/**
 * POST /api/chats/{id}/messages/{messageId}/edit: a new version of one of the user's messages (same parent, same
 * attached files, the new text) and its reply; the earlier exchange stays as a sibling branch.
 */
export async function editMessage(options: ReplyOptions & { messageId: number; input: EditMessageInput }): Promise<StartedReply> {
  const { db, who, chatId, messageId } = options;
  const [edited] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.chatId, chatId), eq(messages.userId, who.id)))
    .limit(1);
  if (!edited) throw new AppError("NOT_FOUND", MESSAGE_NOT_FOUND);
  if (edited.role !== "user") throw new AppError("BAD_REQUEST", ONLY_YOURS);
  const { fileIds } = options.input;
  // New library files replace the edited message's; its pasted files stay. Without `fileIds` all of its files stay.
  const attachmentsOf = async () =>
    fileIds === undefined
      ? edited.attachments
      : [...edited.attachments.filter((a) => a.fileId === undefined), ...(await attachFiles(db, who, fileIds))];
  return storeAndAnswer(options, options.input, attachmentsOf, edited);
}

/**
 * A new reply beside the last one of the branch shown (its sibling: the earlier reply stays, as a branch), or
 * the answer to a last user message that never got one. The new reply becomes the leaf shown.
 */
export async function regenerateReply(options: ReplyOptions & { input: RegenerateInput }): Promise<StartedReply> {
  const { generations, input } = options;
  const prepared = await prepareReply(options, (chat, rows) => {
    const last = rows.at(-1);
    if (!last) throw new AppError("BAD_REQUEST", "There is no message to answer yet.");
    const slug = input.platformSlug ?? last.platformSlug ?? chat.aiPlatform;
    return { slug, model: input.model ?? (last.role === "assistant" ? last.model : chat.model) };
  });
  const { prior, reply } = prepared;
  const last = prior.at(-1);
  const replaced = last?.role === "assistant" ? last : undefined;
  const parentId = replaced ? replaced.parentId : (last?.id ?? null);
  const request = await answering(options, prepared, replaced ? prior.slice(0, -1) : prior);
  // Racing regenerates (and sends) of this chat queue on its row lock: the first adds its reply, the others
  // find it being written, or the leaf shown moved since they read it (409), so one message gets one new reply.
  const { generation, written: assistantRow } = await generations.begin({
    ...request,
    write: (hold) => startInDatabase(options, { expectedLeaf: last?.id ?? null, parentId, user: null, reply, hold }),
    stored: ({ reply: row, holdId }) => ({ messageId: row.id, message: toMessage(row), holdId }),
  });
  await endPausedAfterStart(options);
  return { userMessage: null, assistantMessage: toMessage(assistantRow.reply), generation };
}

export const TOOL_CALL_NOT_FOUND = "Tool call not found";
export const NOT_AWAITING = "This tool call is not waiting for an answer.";

/**
 * POST /api/chats/{id}/tool-calls/{callId}/approve and .../deny (issue 34, decision 046): the answer to a call a reply
 * paused on, and the reply going on from its stored state (its row: text, calls, tokens), on whichever instance is
 * asked, also after a restart. Approved, the call runs; denied, the model is told so. The conversation before it is
 * read again as a regenerate reads it (the branch up to the message it answers, its material). Another call of the
 * same step still awaiting keeps it paused. A call that is not awaiting (answered already, or never) is a 409.
 */
export async function answerToolCall(options: ReplyOptions & { callId: string; approved: boolean }): Promise<StartedReply> {
  const { db, who, chatId, callId, generations } = options;
  await findOwnChat(db, who.id, chatId);
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), sql`${messages.toolCalls} @> ${JSON.stringify([{ id: callId }])}::jsonb`))
    .orderBy(desc(messages.id))
    .limit(1);
  const call = row?.toolCalls.find((c) => c.id === callId);
  if (!row || !call) throw new AppError("NOT_FOUND", TOOL_CALL_NOT_FOUND);
  if (row.status !== "awaiting-approval" || call.status !== "awaiting-approval") throw new AppError("CONFLICT", NOT_AWAITING);
  // The reply goes on from what its calls gave the model: passages of the library need files:read (decision 056).
  if (row.toolCalls.some((c) => (c.sources?.length ?? 0) > 0)) assertReadsLibrary(who);
  const prepared = await prepareReply(
    options,
    (chat) => ({ slug: row.platformSlug ?? chat.aiPlatform, model: row.model }),
    sql`${row.parentId}`,
    [call.tool],
  );
  const request = await answering(options, prepared, prepared.prior);
  const toolCalls = row.toolCalls.map((c) =>
    c.id !== callId
      ? c
      : options.approved
        ? { ...c, status: "running" as const }
        : { ...c, status: "denied" as const, result: DENIED_RESULT },
  );
  const { generation, row: resumed } = await generations.resume({
    ...request,
    userId: who.id,
    maxRunning: options.maxRunning,
    write: async () => {
      // Only from the state read: a racing answer (another tab, another call of the step) finds it changed (409).
      const [updated] = await db
        .update(messages)
        .set({ status: "streaming", generationOwner: generations.instanceId, toolCalls, error: null, updatedAt: new Date() })
        .where(
          and(
            eq(messages.id, row.id),
            eq(messages.status, "awaiting-approval"),
            sql`${messages.toolCalls} = ${JSON.stringify(row.toolCalls)}::jsonb`,
          ),
        )
        .returning()
        .catch(asConflict);
      if (!updated) throw new AppError("CONFLICT", NOT_AWAITING);
      return updated;
    },
  });
  return { userMessage: null, assistantMessage: toMessage(resumed), generation };
}
