import { z } from "zod";
import { IMPORT_LIMIT_MESSAGES, IMPORT_LIMITS } from "../../../shared/contracts/chat-transfer.js";
import { cleanProviderText } from "../../ai/clean-text.js";
import type { ImportChat, ImportMessage } from "./import-chat.js";
import { parentsFirst } from "./tree-order.js";

/** Seconds since 1970, as ChatGPT writes them (fractions allowed); up to the year 5138. */
const seconds = z.number().min(0, "Must be a time in seconds since 1970").max(1e11, "Must be a time in seconds since 1970");

const chatGptMessageSchema = z.object({
  author: z.object({ role: z.string() }),
  content: z.object({
    content_type: z.string(),
    parts: z.array(z.unknown()).nullish(),
    text: z.string().nullish(),
  }),
  create_time: seconds.nullish(),
  status: z.string().nullish(),
  metadata: z.object({ model_slug: z.string().max(120).nullish(), is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
});
type ChatGptMessage = z.infer<typeof chatGptMessageSchema>;

const chatGptNodeSchema = z.object({
  id: z.string().max(200),
  message: chatGptMessageSchema.nullish(),
  parent: z.string().max(200).nullish(),
  children: z.array(z.string()).nullish(),
});

const conversationSchema = z.object({
  title: z.string().nullish(),
  create_time: seconds.nullish(),
  update_time: seconds.nullish(),
  mapping: z.record(z.string(), chatGptNodeSchema).refine((mapping) => Object.keys(mapping).length <= IMPORT_LIMITS.maxNodesPerChat, {
    message: IMPORT_LIMIT_MESSAGES.nodesPerChat,
  }),
  current_node: z.string().nullish(),
  default_model_slug: z.string().max(120).nullish(),
});

/**
 * The `conversations.json` of a ChatGPT data export: an array of conversations, each a tree of nodes in `mapping`.
 * Every node counts towards the limits, hidden or not (`readImportFile` counts them before this schema reads them).
 */
export const chatGptExportSchema = z
  .array(conversationSchema)
  .max(IMPORT_LIMITS.maxChats, IMPORT_LIMIT_MESSAGES.chats)
  .refine((list) => list.reduce((sum, c) => sum + Object.keys(c.mapping).length, 0) <= IMPORT_LIMITS.maxNodes, {
    message: IMPORT_LIMIT_MESSAGES.nodes,
  });
type Conversation = z.infer<typeof conversationSchema>;

/** At most `max` UTF-16 units, never ending in half of a pair (an emoji cut in two would be broken text). */
const cut = (text: string, max: number) => cleanProviderText(text.slice(0, max));

/** The text a reader saw, or null for what is not shown (system and tool messages, hidden context, empty text). */
function visibleText(message: ChatGptMessage): string | null {
  if (message.author.role !== "user" && message.author.role !== "assistant") return null;
  if (message.metadata?.is_visually_hidden_from_conversation) return null;
  const { content } = message;
  let text: string;
  switch (content.content_type) {
    case "text":
      text = (content.parts ?? []).filter((part): part is string => typeof part === "string").join("\n\n");
      break;
    case "multimodal_text":
      text = (content.parts ?? [])
        .map((part) => (typeof part === "string" ? part : "[An image or file that was not imported]"))
        .filter(Boolean)
        .join("\n\n");
      break;
    case "code":
      text = content.text ? `\`\`\`\n${content.text}\n\`\`\`` : "";
      break;
    default:
      return null;
  }
  const cleaned = cleanProviderText(text);
  return cleaned.trim() ? cut(cleaned, IMPORT_LIMITS.maxMessageChars) : null;
}

const fromSeconds = (value: number | null | undefined, fallback: Date) => (value == null ? fallback : new Date(value * 1000));

/**
 * The nearest kept node at or above a key, for every key of one conversation, in time linear in its nodes: each
 * walk up stops at a node already answered, and everything it passed gets the same answer, so a long hidden chain
 * is walked once, not once per message below it. A loop or a missing parent ends a walk (nothing kept above).
 * A loop, not recursion: a chain as deep as the file allows cannot overflow the stack.
 */
function nearestKeptAbove(parents: Map<string, string | null>, kept: Map<string, unknown>) {
  const known = new Map<string, string | null>();
  return (start: string | null | undefined): string | null => {
    const passed: string[] = [];
    const onThisWalk = new Set<string>();
    let key = start ?? null;
    let found: string | null = null;
    while (key !== null) {
      if (kept.has(key)) {
        found = key;
        break;
      }
      const answer = known.get(key);
      if (answer !== undefined) {
        found = answer;
        break;
      }
      if (onThisWalk.has(key)) break;
      onThisWalk.add(key);
      passed.push(key);
      key = parents.get(key) ?? null;
    }
    for (const step of passed) known.set(step, found);
    return found;
  };
}

/** One conversation as a chat: hidden nodes dropped, their children re-linked to the nearest kept ancestor. */
export function chatFromConversation(conversation: Conversation): ImportChat {
  const nodes = Object.entries(conversation.mapping);
  const created = fromSeconds(conversation.create_time, new Date());
  const kept = new Map<string, ImportMessage>();
  const parents = new Map<string, string | null>();
  for (const [key, node] of nodes) {
    parents.set(key, node.parent ?? null);
    const message = node.message;
    const content = message ? visibleText(message) : null;
    if (!message || content === null) continue;
    kept.set(key, {
      key,
      parentKey: null,
      role: message.author.role as "user" | "assistant",
      content,
      status: !message.status || message.status === "finished_successfully" ? "complete" : "incomplete",
      model: message.author.role === "assistant" ? (message.metadata?.model_slug ?? null) : null,
      platform: message.author.role === "assistant" ? "openai" : null,
      personalityName: null,
      createdAt: fromSeconds(message.create_time, created),
      attachments: [],
    });
  }
  const keptAtOrAbove = nearestKeptAbove(parents, kept);
  for (const [key, message] of kept) message.parentKey = keptAtOrAbove(parents.get(key));
  const messages = parentsFirst([...kept.values()]);
  const leaf = keptAtOrAbove(conversation.current_node);
  const leafMessage = leaf ? kept.get(leaf) : undefined;
  return {
    title: cut(cleanProviderText(conversation.title ?? "").trim(), IMPORT_LIMITS.maxTitleChars),
    createdAt: created,
    updatedAt: fromSeconds(conversation.update_time, created),
    platform: "openai",
    model: leafMessage?.model ?? conversation.default_model_slug ?? null,
    activeLeafKey: leaf && messages.some((m) => m.key === leaf) ? leaf : null,
    messages,
  };
}
