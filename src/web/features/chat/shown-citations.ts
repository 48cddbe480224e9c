import type { Citation, Message } from "../../../shared/contracts/chat.js";
import { citedIn } from "../../../shared/numbered-refs.js";

const byNumber = (a: Citation, b: Citation) => a.n - b.n;

/**
 * The citations a reply shows as chips (decisions 037, 055). A settled reply: those stored with its end. One still being
 * written (or paused on a tool call): those already stored, and each passage its search_files calls gave that its
 * text cites so far, so a [n] becomes a chip as soon as the call that numbered it has answered.
 */
export function shownCitations(message: Message, settled: boolean): Citation[] {
  if (settled) return message.citations;
  const live = citedIn(
    message.content,
    // A call from an instance older than decision 055 (a rolling deploy) has no `sources`.
    message.toolCalls.flatMap((call) => call.sources ?? []),
  );
  if (message.citations.length === 0) return live;
  const stored = new Set(message.citations.map((c) => c.n));
  return [...message.citations, ...live.filter((c) => !stored.has(c.n))].sort(byNumber);
}
