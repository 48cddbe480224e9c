import { DEFAULT_CHAT_TITLE, titleFromMessage } from "../../../shared/chat-title.js";
import {
  CHAT_EXPORT_FORMAT,
  chatExportFileSchema,
  type ExportedChat,
  IMPORT_LIMIT_MESSAGES,
  IMPORT_LIMITS,
  isChatExportFormat,
} from "../../../shared/contracts/chat-transfer.js";
import { cleanProviderText } from "../../ai/clean-text.js";
import { AppError } from "../../lib/app-error.js";
import { BAD_TEXT, findBrokenText } from "../../lib/text-guard.js";
import { chatFromConversation, chatGptExportSchema } from "./chatgpt-format.js";
import { type ImportChat, importKeyOf, type KeyedImportChat } from "./import-chat.js";
import { invalidFile } from "./import-errors.js";

const clean = (text: string) => cleanProviderText(text);
const cleanOrNull = (text: string | null) => (text === null ? null : clean(text));

/** A chat of this app's export: ids stay as keys, text loses NUL and broken Unicode. */
function chatFromExport(chat: ExportedChat): ImportChat {
  return {
    title: clean(chat.title).trim(),
    createdAt: new Date(chat.createdAt),
    updatedAt: new Date(chat.updatedAt),
    platform: clean(chat.platform),
    model: cleanOrNull(chat.model),
    activeLeafKey: chat.activeLeafId === null ? null : String(chat.activeLeafId),
    messages: chat.messages.map((message) => ({
      key: String(message.id),
      parentKey: message.parentId === null ? null : String(message.parentId),
      role: message.role,
      content: clean(message.content),
      // A reply still being written (or paused on a tool call) when exported is kept as it was: incomplete.
      status: message.status === "streaming" || message.status === "awaiting-approval" ? "incomplete" : message.status,
      // Kept as given: the calls are shown as text and given back to a model as the untrusted results they were.
      toolCalls: (message.toolCalls ?? []).map((call) => ({
        id: clean(call.id),
        tool: clean(call.tool),
        name: clean(call.name),
        step: call.step,
        args: call.args,
        result: call.result === null ? null : clean(call.result),
        status: call.status === "running" || call.status === "awaiting-approval" ? ("error" as const) : call.status,
        textOffset: call.textOffset,
      })),
      model: cleanOrNull(message.model),
      platform: cleanOrNull(message.platform),
      personalityName: cleanOrNull(message.personalityName),
      createdAt: new Date(message.createdAt),
      // A library file is exported without its bytes: it comes back as its name, size and type, shown as a file the
      // import could not bring (issue 30).
      attachments: message.attachments.map((file) =>
        file.content === undefined
          ? { name: clean(file.name), size: file.size, mimeType: file.type && clean(file.type), sha256: file.sha256, missing: true }
          : { name: clean(file.name), size: Buffer.byteLength(clean(file.content)), content: clean(file.content) },
      ),
    })),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A count over one of `IMPORT_LIMITS`: a 400 that names the place, the limit and the count. */
function overLimit(place: string, rule: string, count: number, hint = ""): AppError {
  return new AppError(
    "BAD_REQUEST",
    `This file holds more than one import can, so nothing was imported. ${place ? `${place}: ` : ""}${rule} (this one has ${count}).${hint}`,
    { errors: { [place || "file"]: rule } },
  );
}

const SPLIT = " Split it into smaller files and import each.";

/**
 * Counts what the file holds before anything else reads it: chats, and messages per chat and in all (in a ChatGPT
 * export every node of a conversation, hidden ones included). A file over a limit is refused here, at the cost of
 * counting keys, before the checks and the reading that cost in proportion to what is counted.
 */
function refuseOverLimits(data: unknown): void {
  let chats: unknown[];
  let items: (chat: unknown) => number;
  let rules: { perChat: number; perChatRule: string; all: number; allRule: string; place: (index: number) => string };
  if (Array.isArray(data)) {
    chats = data;
    items = (chat) => (isRecord(chat) && isRecord(chat.mapping) ? Object.keys(chat.mapping).length : 0);
    rules = {
      perChat: IMPORT_LIMITS.maxNodesPerChat,
      perChatRule: IMPORT_LIMIT_MESSAGES.nodesPerChat,
      all: IMPORT_LIMITS.maxNodes,
      allRule: IMPORT_LIMIT_MESSAGES.nodes,
      place: (index) => `[${index}].mapping`,
    };
  } else if (isRecord(data) && Array.isArray(data.chats)) {
    chats = data.chats;
    items = (chat) => (isRecord(chat) && Array.isArray(chat.messages) ? chat.messages.length : 0);
    rules = {
      perChat: IMPORT_LIMITS.maxMessagesPerChat,
      perChatRule: IMPORT_LIMIT_MESSAGES.messagesPerChat,
      all: IMPORT_LIMITS.maxMessages,
      allRule: IMPORT_LIMIT_MESSAGES.messages,
      place: (index) => `chats[${index}].messages`,
    };
  } else return;
  if (chats.length > IMPORT_LIMITS.maxChats) {
    throw overLimit(Array.isArray(data) ? "" : "chats", IMPORT_LIMIT_MESSAGES.chats, chats.length, SPLIT);
  }
  let all = 0;
  for (const [index, chat] of chats.entries()) {
    const count = items(chat);
    if (count > rules.perChat) throw overLimit(rules.place(index), rules.perChatRule, count);
    all += count;
  }
  if (all > rules.all) throw overLimit(Array.isArray(data) ? "" : "chats", rules.allRule, all, SPLIT);
}

/**
 * Tells the two formats apart and checks the whole file before anything is stored: an array is a ChatGPT
 * `conversations.json`, an object naming our format is this app's export. Anything else is a 400 that says so.
 */
export function readImportFile(data: unknown): ImportChat[] {
  refuseOverLimits(data);
  let chats: ImportChat[];
  if (Array.isArray(data)) {
    const parsed = chatGptExportSchema.safeParse(data);
    if (!parsed.success) throw invalidFile("ChatGPT conversations.json", parsed.error);
    chats = parsed.data.map(chatFromConversation);
  } else if (data && typeof data === "object" && isChatExportFormat((data as { format?: unknown }).format)) {
    const parsed = chatExportFileSchema.safeParse(data);
    if (!parsed.success) throw invalidFile("chat export of this app", parsed.error);
    chats = parsed.data.chats.map(chatFromExport);
  } else {
    throw new AppError(
      "BAD_REQUEST",
      `This file is neither a chat export of this app (an object with "format": "${CHAT_EXPORT_FORMAT}") nor the conversations.json of a ChatGPT data export (an array of conversations), so nothing was imported.`,
    );
  }
  return chats.map((chat) => ({ ...chat, title: chat.title || DEFAULT_CHAT_TITLE }));
}

/**
 * A chat without a name (a ChatGPT conversation never titled, or one called "New Chat" or ChatGPT's "New chat") is
 * titled from its first user message, as a chat made here is (`titleFromMessage`); with none it stays "New Chat".
 */
function titled(chat: ImportChat): ImportChat {
  if (chat.title.toLowerCase() !== DEFAULT_CHAT_TITLE.toLowerCase()) return chat;
  const firstAsked = chat.messages.find((message) => message.role === "user" && message.content.trim() !== "");
  return firstAsked ? { ...chat, title: titleFromMessage(firstAsked.content) } : chat;
}

/** Where the bytes came from: an uploaded file (its text is cleaned) or a JSON body (held to the API's text rule). */
export type ImportSource = "file" | "body";

/** A key `__proto__` as JSON writes it, escapes included (as the body parser of the rest of the API looks for it). */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/** Whether any object in the value has an own `__proto__` key (a walk with a stack of its own, never recursion). */
function hasProtoKey(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null) continue;
    if (!Array.isArray(next) && Object.hasOwn(next, "__proto__")) return true;
    for (const inner of Object.values(next)) if (typeof inner === "object" && inner !== null) stack.push(inner);
  }
  return false;
}

/**
 * The import's whole reading, from the bytes sent to the chats and their keys: UTF-8, JSON, the limits, the format.
 * It runs in the import's worker thread (`import-worker.ts`), so none of it holds up the server's other requests.
 * A JSON body meets the rules every JSON body of the API meets (no `__proto__` key, no NUL or broken Unicode: 400);
 * an uploaded file's text is cleaned instead.
 */
export function readImportBytes(bytes: Uint8Array, source: ImportSource): KeyedImportChat[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new AppError("BAD_REQUEST", "The file is not UTF-8 text, so nothing was imported. Choose the .json file of an export.");
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? ` (${error.message.slice(0, 200)})` : "";
    throw new AppError("BAD_REQUEST", `The file is not valid JSON${detail}, so nothing was imported. Choose the .json file of an export.`);
  }
  if (source === "body") {
    if (PROTO_KEY.test(text) && hasProtoKey(data)) throw new AppError("BAD_REQUEST", "Object contains forbidden prototype property");
    const field = findBrokenText(data);
    if (field) throw new AppError("BAD_REQUEST", BAD_TEXT, { errors: { [field]: BAD_TEXT } });
  }
  // The key is the chat as read, before it is titled, so a file imported before untitled chats were titled is
  // still recognised (decision 024).
  return readImportFile(data).map((chat) => ({ chat: titled(chat), key: importKeyOf(chat) }));
}
