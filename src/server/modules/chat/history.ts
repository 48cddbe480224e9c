import type { TextMessage } from "../../ai/generate.js";
import type { MessageRow } from "./chat-view.js";
import { replyTurn } from "./tool-steps.js";

/** How much of a long conversation goes to the model: the newest messages within this budget. */
const HISTORY_CHAR_BUDGET = 200_000;
export const HISTORY_MAX_MESSAGES = 200;

/** A user message with its attached files, each fenced and named so the model can refer to them. */
export function userText(row: Pick<MessageRow, "content" | "attachments">): string {
  // A library file (issue 30) is named only: what the reply is given of it comes as numbered sources (reply-material.ts).
  const files = row.attachments.map((a) =>
    a.content === undefined
      ? `\n\n<attached-file name="${a.name.replaceAll('"', "'")}" />`
      : `\n\n<attached-file name="${a.name.replaceAll('"', "'")}">\n${a.content}\n</attached-file>`,
  );
  return row.content + files.join("");
}

/**
 * The conversation as the model sees it: the messages of one branch (the one shown, or the one an edit
 * continues; never its siblings), oldest first, replies that produced nothing left out, trimmed from the
 * old end to the budget, starting with the user.
 */
export function buildHistory(
  rows: (Pick<MessageRow, "role" | "content" | "attachments"> & Partial<Pick<MessageRow, "toolCalls">>)[],
): TextMessage[] {
  const picked: TextMessage[] = [];
  let used = 0;
  for (let i = rows.length - 1; i >= 0 && picked.length < HISTORY_MAX_MESSAGES; i--) {
    const row = rows[i];
    if (!row) continue;
    const text = row.role === "user" ? userText(row) : row.content;
    const calls = row.role === "assistant" ? (row.toolCalls ?? []) : [];
    if (!text.trim() && calls.length === 0) continue;
    const size = text.length + calls.reduce((sum, call) => sum + (call.result?.length ?? 0), 0);
    if (used + size > HISTORY_CHAR_BUDGET && picked.length > 0) break;
    used += size;
    // A reply's tool calls and their results go back to the model as its own tool parts (issue 34).
    picked.push(row.role === "user" ? { role: "user", content: text } : replyTurn(text, calls));
  }
  picked.reverse();
  while (picked[0] && picked[0].role !== "user") picked.shift();
  return picked;
}
