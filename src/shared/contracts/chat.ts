import { z } from "zod";
import { ATTACHMENTS, ATTACHMENTS_TOO_LONG, DEFAULT_CHAT_TITLE, DEFAULT_PLATFORM_SLUG, MESSAGE_MAX_CHARS } from "../constants.js";
import { citationSchema, passageInContextSchema } from "./citation.js";
import { idField, idParamsSchema, idText } from "./common.js";
import { endpoint, tokenScoped } from "./endpoint.js";
import { titleField } from "./fields.js";
import { toolCallParamsSchema, toolCallSchema, toolIdsField } from "./tools.js";
import { usageSchema } from "./usage.js";

const slug = z
  .string()
  .trim()
  .min(1, "Choose an AI platform")
  .max(60)
  .regex(/^[a-z0-9-]+$/, "Unknown AI platform");
const modelName = z.string().trim().min(1).max(120);

/** Library files attached to one message (issue 30): ids of the caller's files (another's is a 404). */
export const MESSAGE_FILES_MAX = 10;
export const fileIdsField = z
  .array(idField)
  .max(MESSAGE_FILES_MAX, `Attach at most ${MESSAGE_FILES_MAX} files`)
  .transform((ids) => [...new Set(ids)]);

/** Collections attached to a chat or a personality. */
export const COLLECTIONS_MAX = 20;
export const collectionIdsField = z
  .array(idField)
  .max(COLLECTIONS_MAX, `Attach at most ${COLLECTIONS_MAX} collections`)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const chatSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  aiPlatform: z.string(),
  model: z.string().nullable(),
  /** Save Chat History off: not listed, removed when left. */
  temporary: z.boolean(),
  /** The training personality speaking in this chat (Early Access). */
  personalityId: z.number().int().nullable(),
  /** The user's folder holding this chat, or null. */
  folderId: z.number().int().nullable(),
  /** Pinned chats come first in the sidebar. */
  pinned: z.boolean(),
  /** The caller's knowledge collections searched on every reply of this chat (issue 30), in id order. */
  collectionIds: z.array(z.number().int()),
  /** The lesson this chat is the tutor of (issue 31, `POST /api/lessons/:id/tutor`), or null for any other chat. */
  tutorLesson: z.object({ id: z.number().int(), title: z.string(), courseId: z.number().int() }).nullable(),
  /** The tools switched on for this chat's replies (issue 34): ids from GET /api/tools, sorted. */
  tools: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof chatSchema>;
export type TutorLessonRef = NonNullable<Chat["tutorLesson"]>;

/**
 * POST /api/chats. `personalityId`: one of the caller's training personalities (Early Access),
 * set in the same call; with no `model` named the chat takes the personality's preferred platform and model, if it
 * has one, as choosing it later does. `collectionIds`: the caller's collections its replies search, attached in the
 * same call on the rules of attaching them later (decision 066: another's or a missing one is a 404 and no chat is made).
 */
export const createChatBodySchema = z.object({
  title: titleField.default(DEFAULT_CHAT_TITLE),
  aiPlatform: slug.default(DEFAULT_PLATFORM_SLUG),
  model: modelName.optional(),
  personalityId: idField.nullable().optional(),
  collectionIds: collectionIdsField.optional(),
});
export type CreateChatBody = z.input<typeof createChatBodySchema>;
export type CreateChatInput = z.output<typeof createChatBodySchema>;

/** PATCH /api/chats/{id}: rename, or change the platform/model. */
export const updateChatBodySchema = z
  .object({
    title: titleField.optional(),
    aiPlatform: slug.optional(),
    model: modelName.nullable().optional(),
    personalityId: idField.nullable().optional(),
    /** Move into one of the caller's folders, or out of any (null). */
    folderId: idField.nullable().optional(),
    pinned: z.boolean({ error: "Pinned must be true or false" }).optional(),
    /** The caller's collections searched on every reply (replaces the set; [] detaches all); another's is a 404. */
    collectionIds: collectionIdsField.optional(),
    /** The tools its replies may call (replaces the set; [] switches all off); a tool the caller may not use is a 403. */
    tools: toolIdsField.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Nothing to change");
export type UpdateChatBody = z.input<typeof updateChatBodySchema>;
export type ChatPatch = z.output<typeof updateChatBodySchema>;

/** GET /api/chats: `limit` + `cursor` (next one in the NEXT_CURSOR_HEADER response header). */
export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(100).optional(),
  /** The sidebar's sections: one folder's chats, or `none` (chats in no folder). Absent: every listed chat. */
  folderId: z.union([z.literal("none"), idText], { error: "folderId must be a folder id or none" }).optional(),
  /** `true`: pinned chats only, most recently pinned first; `false`: unpinned chats only. */
  pinned: z.enum(["true", "false"], { error: "pinned must be true or false" }).optional(),
});
export type ChatListQuery = z.output<typeof listQuerySchema>;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(200, "Search text is too long"),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  /** Only the chats of this folder of the caller's (another user's folder is a 404). */
  folderId: idText.optional(),
});
export const chatSearchHitSchema = chatSchema.extend({
  /** A short piece of matching message text (plain text), or null when only the title matched. */
  snippet: z.string().nullable(),
});
export type ChatSearchHit = z.infer<typeof chatSearchHitSchema>;

/**
 * `awaiting-approval`: the reply is paused on a tool call that needs the user's answer (issue 34, decision 046); it
 * goes on (status streaming again) after approve or deny.
 */
export const messageStatusSchema = z.enum(["complete", "streaming", "incomplete", "failed", "awaiting-approval"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

export const attachmentSchema = z.object({
  name: z.string().trim().min(1).max(200),
  content: z.string().max(ATTACHMENTS.maxBytesPerFile, `Each attached file must be at most ${ATTACHMENTS.maxBytesPerFile / 1024} KB`),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * What a message carries besides its text. A pasted text file (before issue 30) has `fileId`, `type` and `kind` null;
 * a library file names its `fileId`. `missing`: the library file was deleted since, or an import could not bring it
 * (shown as a placeholder with the name and size kept).
 */
export const messageAttachmentSchema = z.object({
  name: z.string(),
  size: z.number().int(),
  fileId: z.number().int().nullable(),
  /** The type found from the bytes (image/png, application/pdf...). */
  type: z.string().nullable(),
  /** pdf | docx | markdown | text | html | csv | json | code | image */
  kind: z.string().nullable(),
  missing: z.boolean(),
});
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;

// A passage a reply cited inline as [n] (issue 30; a search_files call's too, decision 055).
export { type Citation, citationSchema } from "./citation.js";

/** GET /api/chats/{id}/messages/{messageId}/citations/{n}: the passage with the text around it, for the side panel. */
export const citationDetailSchema = citationSchema.extend(passageInContextSchema.shape);
export type CitationDetail = z.infer<typeof citationDetailSchema>;
export const citationParamsSchema = z.object({ id: idText, messageId: idText, n: z.coerce.number().int().min(1).max(9999) });

export const messageSchema = z.object({
  id: z.number().int(),
  chatId: z.number().int(),
  /** The message this one follows (null for a first message): messages form a tree, siblings are branches. */
  parentId: z.number().int().nullable(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  status: messageStatusSchema,
  /** Why a reply stopped early (provider failure, stopped by the user...). */
  error: z.string().nullable(),
  platformSlug: z.string().nullable(),
  model: z.string().nullable(),
  attachments: z.array(messageAttachmentSchema),
  /** The passages a reply cited as [n] (only passages it was really given); [] for user messages. */
  citations: z.array(citationSchema),
  /** The tool calls a reply made, in order (issue 34); [] for user messages. */
  toolCalls: z.array(toolCallSchema),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  /** The personality that wrote this reply, kept even if the chat changes personality later. */
  personalityName: z.string().nullable(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

/** Where a message sits among its siblings (the versions made by edit and regenerate): "2 / 3". */
export const branchPositionSchema = z.object({
  /** 1-based position of this message among its siblings, oldest first. */
  index: z.number().int(),
  count: z.number().int(),
  /** Every sibling's id (this one included), oldest first. */
  siblingIds: z.array(z.number().int()),
});
export type BranchPosition = z.infer<typeof branchPositionSchema>;

/** A message of the branch shown, with its place among its siblings (GET /api/chats/{id}/messages). */
export const shownMessageSchema = messageSchema.extend({ branch: branchPositionSchema });
export type ShownMessage = z.infer<typeof shownMessageSchema>;

const content = z
  .string({ error: "Message cannot be empty" })
  .trim()
  .min(1, "Message cannot be empty")
  .max(MESSAGE_MAX_CHARS, `A message cannot exceed ${MESSAGE_MAX_CHARS} characters`);

/** POST /api/chats/{id}/messages. */
export const createMessageBodySchema = z.object({ content, role: z.enum(["user", "assistant"]).default("user") });
export type NewMessageInput = z.output<typeof createMessageBodySchema>;

/** POST /api/chats/{id}/messages/{messageId}/edit: a new version of a user message, answered like a send. */
export const editMessageBodySchema = z.object({
  content,
  platformSlug: slug.optional(),
  model: modelName.optional(),
  /** The new version's library files; absent: the edited message's files are kept. */
  fileIds: fileIdsField.optional(),
});
export type EditMessageBody = z.input<typeof editMessageBodySchema>;
export type EditMessageInput = z.output<typeof editMessageBodySchema>;
export const messageParamsSchema = z.object({ id: idText, messageId: idText });

/** PUT /api/chats/{id}/branch: show the branch through this message (down to its newest reply). */
export const switchBranchBodySchema = z.object({ messageId: idField });
export type SwitchBranchBody = z.input<typeof switchBranchBodySchema>;
export const switchBranchResultSchema = z.object({ leafId: z.number().int() });

/** GET /api/chats/{id}/messages: the newest `limit`, oldest first; `before` pages back. */
export const messagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(200),
  before: idText.optional(),
});

/** POST /api/ai/chat: non-streamed, answers `{ content }`. */
export const aiChatBodySchema = z.object({
  platformSlug: slug,
  messages: z
    .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(MESSAGE_MAX_CHARS) }))
    .min(1, "Send at least one message")
    .max(1000),
  model: modelName.optional(),
  /** When given, the chat's owner is checked and its settings apply. */
  chatId: idField.optional(),
  /** A training personality of the caller's (Early Access). */
  personalityId: idField.optional(),
});
export type AiChatBody = z.input<typeof aiChatBodySchema>;
export type AiChatInput = z.output<typeof aiChatBodySchema>;
export const aiChatResponseSchema = z.object({ content: z.string() });

/** POST /api/chats/{id}/reply: store the user's message and stream the reply (Server-Sent Events). */
export const sendReplyBodySchema = z.object({
  content,
  platformSlug: slug.optional(),
  model: modelName.optional(),
  attachments: z
    .array(attachmentSchema)
    .max(ATTACHMENTS.maxFiles, `Attach at most ${ATTACHMENTS.maxFiles} files`)
    .refine((files) => files.reduce((sum, file) => sum + file.content.length, 0) <= ATTACHMENTS.maxTotalChars, ATTACHMENTS_TOO_LONG)
    .default([]),
  /**
   * Library files (issue 30; uploaded with POST /api/files): each must be the caller's (404) and ready (409 while
   * being read, 400 when reading it failed); an image needs a model that reads images (400 before anything is stored).
   */
  fileIds: fileIdsField.default([]),
});
export type SendReplyBody = z.input<typeof sendReplyBodySchema>;
export type SendReplyInput = z.output<typeof sendReplyBodySchema>;

/** POST /api/chats/{id}/regenerate: a new reply beside the last one (the old one stays as a sibling branch). */
export const regenerateBodySchema = z.object({ platformSlug: slug.optional(), model: modelName.optional() });
export type RegenerateBody = z.input<typeof regenerateBodySchema>;
export type RegenerateInput = z.output<typeof regenerateBodySchema>;

/**
 * What a reply changed besides its text, read once it ended and carried by its `done` event, so the browser puts
 * them in its copies instead of reading the chat, its messages and the usage again.
 */
export const replyEndSchema = z.object({
  /** The chat as GET /api/chats/{id} answers it: its title (from the first message), its time, its model. */
  chat: chatSchema,
  /**
   * The reply's end of the branch shown, as GET /api/chats/{id}/messages lists it: the message the reply answers
   * (the user's message of a send or an edit, the same one for a regenerate) then the reply, each with its place
   * among its siblings. What the branch shown held after that message is gone from it (the reply is its leaf).
   */
  shown: z.array(shownMessageSchema),
  /** GET /api/usage with the reply's tokens counted. */
  usage: usageSchema,
});
export type ReplyEnd = z.infer<typeof replyEndSchema>;

/**
 * Events of a reply stream, one JSON object per SSE `data:` line.
 * `delta.offset` is where the text starts in the reply, so a resumed stream never repeats or skips text.
 * `done.after` is null when it could not be read (the database away): the browser then reads them itself.
 */
export const streamEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("start"), userMessage: messageSchema.nullable(), assistantMessage: messageSchema }),
  z.object({ type: z.literal("snapshot"), assistantMessage: messageSchema }),
  z.object({ type: z.literal("delta"), messageId: z.number().int(), offset: z.number().int(), text: z.string() }),
  /** A tool call started, needs approval (the stream then ends with `done`, the reply awaiting-approval), or ended. */
  z.object({ type: z.literal("tool"), messageId: z.number().int(), toolCall: toolCallSchema }),
  z.object({ type: z.literal("done"), assistantMessage: messageSchema, after: replyEndSchema.nullable() }),
  z.object({ type: z.literal("error"), message: z.string(), status: z.number().int() }),
]);
export type StreamEvent = z.infer<typeof streamEventSchema>;

/** POST /api/chats/{id}/stop: whether a reply was running (and is now stopping). */
export const stopResultSchema = z.object({ stopped: z.boolean() });

/** The endpoints of chats, their messages and their reply streams: owner-only (someone else's chat is a 404). */
export const chatsApi = tokenScoped("chat", {
  /** Listed (not temporary) chats, most recently active first. */
  list: endpoint({
    method: "GET",
    path: "/api/chats",
    access: "user",
    query: listQuerySchema,
    response: z.array(chatSchema),
    kind: "paged",
  }),
  search: endpoint({
    method: "GET",
    path: "/api/chats/search",
    access: "user",
    query: searchQuerySchema,
    response: z.array(chatSearchHitSchema),
  }),
  create: endpoint({ method: "POST", path: "/api/chats", access: "user", body: createChatBodySchema, response: chatSchema, status: 201 }),
  get: endpoint({ method: "GET", path: "/api/chats/:id", access: "user", params: idParamsSchema, response: chatSchema }),
  update: endpoint({
    method: "PATCH",
    path: "/api/chats/:id",
    access: "user",
    params: idParamsSchema,
    body: updateChatBodySchema,
    response: chatSchema,
  }),
  /** Stops a reply still being written, then deletes the chat and its messages. */
  remove: endpoint({ method: "DELETE", path: "/api/chats/:id", access: "user", params: idParamsSchema, response: z.null(), kind: "empty" }),
  /** The branch shown, root to leaf: the newest `limit` of it, oldest first; the cursor pages back (`before`). */
  messages: endpoint({
    method: "GET",
    path: "/api/chats/:id/messages",
    access: "user",
    params: idParamsSchema,
    query: messagesQuerySchema,
    response: z.array(shownMessageSchema),
    kind: "paged",
  }),
  addMessage: endpoint({
    method: "POST",
    path: "/api/chats/:id/messages",
    access: "user",
    params: idParamsSchema,
    body: createMessageBodySchema,
    response: messageSchema,
    status: 201,
  }),
  /** Stores the user's message and streams the reply. */
  reply: endpoint({
    method: "POST",
    path: "/api/chats/:id/reply",
    access: "user",
    params: idParamsSchema,
    body: sendReplyBodySchema,
    response: streamEventSchema,
    kind: "events",
  }),
  /** A new version of the last reply (a sibling), streamed. */
  regenerate: endpoint({
    method: "POST",
    path: "/api/chats/:id/regenerate",
    access: "user",
    params: idParamsSchema,
    body: regenerateBodySchema,
    response: streamEventSchema,
    kind: "events",
  }),
  /** A new version of a user message (a sibling; the old exchange stays as a branch), and its reply, streamed. */
  editMessage: endpoint({
    method: "POST",
    path: "/api/chats/:id/messages/:messageId/edit",
    access: "user",
    params: messageParamsSchema,
    body: editMessageBodySchema,
    response: streamEventSchema,
    kind: "events",
  }),
  /** Shows the branch through a message, down to its newest reply; 409 while a reply is being written. */
  switchBranch: endpoint({
    method: "PUT",
    path: "/api/chats/:id/branch",
    access: "user",
    params: idParamsSchema,
    body: switchBranchBodySchema,
    response: switchBranchResultSchema,
  }),
  /** Resumes the reply being written, from what has arrived so far; 204 when none is. */
  stream: endpoint({
    method: "GET",
    path: "/api/chats/:id/stream",
    access: "user",
    params: idParamsSchema,
    response: streamEventSchema,
    kind: "events",
    nullIs204: true,
  }),
  /** A citation of a reply, with the text around it (the side panel); owner only, an unknown [n] is a 404. */
  citation: endpoint({
    method: "GET",
    path: "/api/chats/:id/messages/:messageId/citations/:n",
    access: "user",
    params: citationParamsSchema,
    response: citationDetailSchema,
  }),
  /**
   * The answer to a tool call awaiting approval (issue 34): the reply goes on from its stored state, streamed like a
   * regenerate (`start` with userMessage null). Owner only (404); a call not awaiting approval is a 409.
   */
  approveToolCall: endpoint({
    method: "POST",
    path: "/api/chats/:id/tool-calls/:callId/approve",
    access: "user",
    params: toolCallParamsSchema,
    response: streamEventSchema,
    kind: "events",
  }),
  /** As approve; the model is told the user denied the call, and the reply goes on. */
  denyToolCall: endpoint({
    method: "POST",
    path: "/api/chats/:id/tool-calls/:callId/deny",
    access: "user",
    params: toolCallParamsSchema,
    response: streamEventSchema,
    kind: "events",
  }),
  stop: endpoint({ method: "POST", path: "/api/chats/:id/stop", access: "user", params: idParamsSchema, response: stopResultSchema }),
  /** One non-streamed answer. */
  aiChat: endpoint({ method: "POST", path: "/api/ai/chat", access: "user", body: aiChatBodySchema, response: aiChatResponseSchema }),
});
