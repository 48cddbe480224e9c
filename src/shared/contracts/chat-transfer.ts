import { z } from "zod";
import { ATTACHMENTS } from "../constants.js";
import { MESSAGE_FILES_MAX } from "./chat.js";
import { chatExportAddress } from "./chat-export-address.js";
import { citationSchema } from "./citation.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { toolCallSchema } from "./tools.js";

/** What one import may hold: beyond these the whole file is refused (413 for bytes, 400 for counts), nothing imported. */
export const IMPORT_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxChats: 5_000,
  maxMessagesPerChat: 10_000,
  maxMessages: 200_000,
  /**
   * A ChatGPT conversation's nodes, and a whole file's: every node counts, the hidden ones too (system, tool,
   * context, empty), since each is read before it is known to be hidden.
   */
  maxNodesPerChat: 10_000,
  maxNodes: 200_000,
  maxMessageChars: 500_000,
  maxTitleChars: 200,
} as const;

/** What each count limit says when a file is over it (the schemas below and the server's count before them). */
export const IMPORT_LIMIT_MESSAGES = {
  chats: `An import can hold at most ${IMPORT_LIMITS.maxChats} chats`,
  messagesPerChat: `A chat can hold at most ${IMPORT_LIMITS.maxMessagesPerChat} messages`,
  messages: `An import can hold at most ${IMPORT_LIMITS.maxMessages} messages in all`,
  nodesPerChat: `A ChatGPT conversation can hold at most ${IMPORT_LIMITS.maxNodesPerChat} messages, hidden ones (system, tool, context) included`,
  nodes: `An import can hold at most ${IMPORT_LIMITS.maxNodes} ChatGPT messages in all, hidden ones (system, tool, context) included`,
} as const;

/** The JSON export's `format`, named after the product (Lumora). */
export const CHAT_EXPORT_FORMAT = "lumora.chats";
/** The export's top-level `note`: what it leaves out (issue 30). */
export const EXPORT_NOTE =
  "Files attached from the knowledge library are listed by name, type, size and SHA-256 only: their bytes are not in this file. " +
  "Imported, they show as files that could not be brought. " +
  "A reply's cited sources are listed by number, file, page and a short excerpt; the import keeps the reply's text without them.";
/** What exports written before the product had its name say: still imported. */
export const LEGACY_CHAT_EXPORT_FORMATS = ["ai-course-chat-platform.chats"] as const;
/** Every `format` the import takes as this app's export. */
export const CHAT_IMPORT_FORMATS = [CHAT_EXPORT_FORMAT, ...LEGACY_CHAT_EXPORT_FORMATS] as const;
/** Does a file's `format` name this app's export (under its name or an old one)? */
export const isChatExportFormat = (format: unknown): boolean => (CHAT_IMPORT_FORMATS as readonly unknown[]).includes(format);
export const CHAT_EXPORT_VERSION = 1;

const timestamp = z.iso.datetime({ offset: true, error: "Must be a date and time (ISO 8601)" });
/** Ids are local to one chat of the file: they only link a message to its parent. */
const localId = z.number().int().positive().max(2_147_483_647);

export const exportedAttachmentSchema = z.object({
  name: z.string().min(1).max(200),
  size: z.number().int().min(0),
  /** A pasted text file's text. A file from the knowledge library (issue 30) is listed without its bytes. */
  content: z
    .string()
    .max(ATTACHMENTS.maxBytesPerFile, `Each attached file must be at most ${ATTACHMENTS.maxBytesPerFile / 1024} KB`)
    .optional(),
  /** The file's type found from its bytes, and the SHA-256 of its bytes (library files). */
  type: z.string().max(200).optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

/**
 * A source a reply cited as [n] (decisions 037, 055), as the export lists it: its number, file and page, and the excerpt;
 * never the file's database id. Written for the reader of the file: the import does not bring it back.
 */
export const exportedCitationSchema = citationSchema.omit({ fileId: true }).extend({
  n: z.number().int().min(1).max(10_000),
  fileName: z.string().max(1000),
  excerpt: z.string().max(2000),
});
export type ExportedCitation = z.infer<typeof exportedCitationSchema>;
const exportedCitations = z.array(exportedCitationSchema).max(1000);

export const exportedMessageSchema = z.object({
  id: localId,
  /** The message this one follows (listed earlier in the same chat), or null for the first. */
  parentId: localId.nullable(),
  role: z.enum(["user", "assistant"]),
  content: z.string().max(IMPORT_LIMITS.maxMessageChars, `A message can hold at most ${IMPORT_LIMITS.maxMessageChars} characters`),
  status: z.enum(["complete", "streaming", "incomplete", "failed", "awaiting-approval"]),
  model: z.string().max(120).nullable(),
  platform: z.string().max(60).nullable(),
  personalityName: z.string().max(200).nullable(),
  createdAt: timestamp,
  // Pasted files and library files (issue 30) together.
  attachments: z
    .array(exportedAttachmentSchema)
    .max(ATTACHMENTS.maxFiles + MESSAGE_FILES_MAX, `A message has at most ${ATTACHMENTS.maxFiles + MESSAGE_FILES_MAX} attachments`),
  /** A reply's tool calls (issue 34), in order, with the model step that asked for each; absent in older files. */
  toolCalls: z
    .array(
      toolCallSchema.extend({
        args: z.record(z.string(), z.unknown()),
        step: z.number().int().min(1).max(1000),
        /** The passages a search_files call gave, numbered as the reply cites them (decision 055); absent in older files. */
        sources: exportedCitations.optional(),
      }),
    )
    .max(1000)
    .optional(),
  /** The sources a reply cites as [n] in its text (decisions 037, 055); absent when none, and in older files. */
  citations: exportedCitations.optional(),
});
export type ExportedMessage = z.infer<typeof exportedMessageSchema>;

export const exportedChatSchema = z
  .object({
    title: z.string().max(IMPORT_LIMITS.maxTitleChars, `A title can hold at most ${IMPORT_LIMITS.maxTitleChars} characters`),
    createdAt: timestamp,
    updatedAt: timestamp,
    platform: z.string().max(60),
    model: z.string().max(120).nullable(),
    /** The leaf of the branch shown, or null for the newest message. */
    activeLeafId: localId.nullable(),
    messages: z.array(exportedMessageSchema).max(IMPORT_LIMITS.maxMessagesPerChat, IMPORT_LIMIT_MESSAGES.messagesPerChat),
  })
  .superRefine((chat, ctx) => {
    const seen = new Set<number>();
    chat.messages.forEach((message, index) => {
      if (seen.has(message.id)) ctx.addIssue({ code: "custom", path: ["messages", index, "id"], message: "Is used twice in this chat" });
      if (message.parentId !== null && !seen.has(message.parentId)) {
        ctx.addIssue({ code: "custom", path: ["messages", index, "parentId"], message: "Names no message listed before it in this chat" });
      }
      seen.add(message.id);
    });
    if (chat.activeLeafId !== null && !seen.has(chat.activeLeafId)) {
      ctx.addIssue({ code: "custom", path: ["activeLeafId"], message: "Names no message of this chat" });
    }
  });
export type ExportedChat = z.infer<typeof exportedChatSchema>;

/** The JSON export (documented in docs/chat-export-format.md), also accepted by the import. */
export const chatExportFileSchema = z
  .object({
    format: z.enum(CHAT_IMPORT_FORMATS),
    version: z.literal(CHAT_EXPORT_VERSION, `Only version ${CHAT_EXPORT_VERSION} of this format can be imported`),
    exportedAt: timestamp,
    /** Said by the export: library files are listed without their bytes (`EXPORT_NOTE`). */
    note: z.string().max(2000).optional(),
    chats: z.array(exportedChatSchema).max(IMPORT_LIMITS.maxChats, IMPORT_LIMIT_MESSAGES.chats),
  })
  .refine((file) => file.chats.reduce((sum, chat) => sum + chat.messages.length, 0) <= IMPORT_LIMITS.maxMessages, {
    message: IMPORT_LIMIT_MESSAGES.messages,
    path: ["chats"],
  });
export type ChatExportFile = z.infer<typeof chatExportFileSchema>;

export const exportFormatSchema = z.enum(["json", "markdown"], "Choose json or markdown");
export type ExportFormat = z.infer<typeof exportFormatSchema>;
export const exportQuerySchema = z.object({ format: exportFormatSchema.default("json") });

export const importResultSchema = z.object({
  imported: z.number().int(),
  skipped: z.array(z.object({ title: z.string(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Export and import of the signed-in user's chats (never temporary ones; someone else's chat is a 404). */
export const chatTransferApi = {
  /** Every saved chat, streamed as a download (JSON: `chatExportFileSchema`; Markdown: the branches shown). */
  exportAll: endpoint({
    method: "GET",
    path: "/api/chats/export",
    access: "user",
    query: exportQuerySchema,
    response: chatExportFileSchema,
    kind: "file",
  }),
  /** One chat, as a download. */
  exportOne: endpoint({
    ...chatExportAddress,
    params: idParamsSchema,
    query: exportQuerySchema,
    response: chatExportFileSchema,
    kind: "file",
  }),
  /**
   * A file (multipart, field "file") or a JSON body: this app's export or a ChatGPT `conversations.json`.
   * At most 50 MiB and the counts of `IMPORT_LIMITS`; read off the main thread, each chat stored whole or not at all.
   */
  import: endpoint({ method: "POST", path: "/api/chats/import", access: "user", upload: true, response: importResultSchema }),
};
