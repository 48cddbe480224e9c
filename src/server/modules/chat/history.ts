import type { TextMessage } from "../../ai/generate.js";
import type { MessageRow } from "./chat-view.js";

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
export function buildHistory(rows: Pick<MessageRow, "role" | "content" | "attachments">[]): TextMessage[] {
  const picked: TextMessage[] = [];
  let used = 0;
  for (let i = rows.length - 1; i >= 0 && picked.length < HISTORY_MAX_MESSAGES; i--) {
    const row = rows[i];
    if (!row) continue;
    const text = row.role === "user" ? userText(row) : row.content;
    if (!text.trim()) continue;
    if (used + text.length > HISTORY_CHAR_BUDGET && picked.length > 0) break;
    used += text.length;
    picked.push(row.role === "user" ? { role: "user", content: text } : { role: "assistant", content: text });
  }
  picked.reverse();
  while (picked[0] && picked[0].role !== "user") picked.shift();
  return picked;
}
