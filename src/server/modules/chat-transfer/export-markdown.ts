import type { Db } from "../../db/client.js";
import { fileLabel } from "../knowledge/retrieval/numbered-sources.js";
import { type ExportChatRow, type ExportMessageRow, type PageOptions, shownBranchPages, writeChatsWithMessages } from "./chat-pages.js";

/** `2025-01-02T10:04:05.000Z` → `2025-01-02 10:04 UTC`. */
const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Text put inline in Markdown (not at a line's start), its marks escaped (`*`, `_`, brackets, `<`...), so it shows as written. */
const escapeInline = (text: string) => text.replace(/[\\`*_[\]<>|~]/g, "\\$&");

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A message's text as a block that cannot take over the rest of the transcript: a code fence it leaves open is
 * closed at its end, and a line that starts with `<` (outside code) is escaped, since an HTML block such as an
 * unclosed `<!--` or `<script>` would run on over every later message.
 */
export function containedMarkdown(text: string): string {
  let fence: string | null = null;
  const lines = text.split(/\r\n|\r|\n/).map((line) => {
    const opener = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (opener) fence = opener;
      else return line.replace(/^( {0,3})</, "$1\\<");
    } else if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
    return line;
  });
  return fence === null ? lines.join("\n") : `${lines.join("\n")}\n${fence}`;
}

function chatHeading(chat: ExportChatRow, level: "#" | "##"): string {
  const model = oneLine(chat.model ? `${chat.aiPlatform} / ${chat.model}` : chat.aiPlatform);
  return `${level} ${oneLine(chat.title) || "Untitled chat"}\n\n_Started ${when(chat.createdAt)} · last active ${when(chat.updatedAt)} · ${model}_\n\n`;
}

/** What a reply's [n] name (decisions 037, 055): `Sources:` then one line each, `[2] leaves.md, page 2`. */
function sourcesList(message: ExportMessageRow): string {
  if (message.citations.length === 0) return "";
  // A file's name may come from anywhere: one line, and no character that would open Markdown of its own.
  const lines = message.citations.map((c) => `- \\[${c.n}\\] ${escapeInline(oneLine(fileLabel(c.fileName, c.page)))}`);
  return `\n\n_Sources:_\n\n${lines.join("\n")}`;
}

function messageBlock(message: ExportMessageRow, level: "##" | "###"): string {
  // Names and models may come from an imported file: kept on one line, like the title.
  const who = message.role === "user" ? "You" : oneLine(message.personalityName ?? "") || "Assistant";
  const details = [message.role === "assistant" && message.model ? oneLine(message.model) : null, when(message.createdAt)]
    .filter(Boolean)
    .join(" · ");
  const note = message.status === "complete" ? "" : `\n\n_(This reply is ${message.status === "failed" ? "failed" : "incomplete"}.)_`;
  const files = message.attachments.length ? `\n\n_Attached: ${message.attachments.map((file) => oneLine(file.name)).join(", ")}_` : "";
  return `${level} ${who} · ${details}\n\n${containedMarkdown(message.content.trim())}${note}${files}${sourcesList(message)}\n\n`;
}

/**
 * The Markdown export: a readable transcript of the branch shown in each chat (other branches are only in the
 * JSON export), one heading per chat, written a page of chats at a time.
 */
export async function* markdownExport(
  db: Db,
  pages: AsyncIterable<ExportChatRow[]>,
  options: { exportedAt: Date; single: boolean; paging?: PageOptions },
): AsyncGenerator<string> {
  const chatLevel = options.single ? "#" : "##";
  const messageLevel = options.single ? "##" : "###";
  if (!options.single) yield `# Chat export\n\n_Exported ${when(options.exportedAt)}. Each chat shows the branch that was on screen._\n\n`;
  for await (const batch of pages) {
    yield* writeChatsWithMessages(
      batch,
      shownBranchPages(
        db,
        batch.map((chat) => chat.id),
        options.paging,
      ),
      {
        open: (chat, index) => `${index > 0 || !options.single ? "---\n\n" : ""}${chatHeading(chat, chatLevel)}`,
        message: (message) => messageBlock(message, messageLevel),
      },
    );
  }
}
