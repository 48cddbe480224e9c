/** A reply's text cut where its tool calls were made: text, then the calls made there, then the text after them. */
export type ReplySegment<C> = { kind: "text"; key: string; text: string } | { kind: "calls"; key: string; calls: C[] };

/**
 * The reply in the order it happened: each call sits where the reply's text stood when the model made it
 * (`textOffset`), calls made at the same place together, in the order made. An offset past the text (a stream
 * whose text has not caught up yet) puts the call at the end; empty text between two groups of calls is left out.
 */
export function replySegments<C extends { id: string; textOffset: number }>(content: string, calls: C[]): ReplySegment<C>[] {
  if (calls.length === 0) return [{ kind: "text", key: "t0", text: content }];
  const segments: ReplySegment<C>[] = [];
  let at = 0;
  for (const call of calls) {
    const offset = Math.min(Math.max(call.textOffset, at), content.length);
    if (offset > at) segments.push({ kind: "text", key: `t${at}`, text: content.slice(at, offset) });
    at = offset;
    const last = segments.at(-1);
    if (last?.kind === "calls") last.calls.push(call);
    else segments.push({ kind: "calls", key: `c${call.id}`, calls: [call] });
  }
  if (at < content.length) segments.push({ kind: "text", key: `t${at}`, text: content.slice(at) });
  return segments;
}
