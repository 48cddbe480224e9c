/**
 * The one way text is cut to a length (excerpts, previews, capped tool answers): never between the two halves of a
 * surrogate pair. A cut there leaves a lone half, which JSON writes as `"\ud83d"` and PostgreSQL's jsonb refuses,
 * so a reply, a citation or a tool call holding it could not be saved (an emoji, or a PDF's math letter such as 𝑥,
 * at the cut).
 */

/** The first `max` UTF-16 units of `text`, one fewer when the last would be the first half of a pair. */
export function sliceWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** `text` as it is when it fits in `max`; else its first `max` units (whole characters), trimmed, and "…". */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${sliceWhole(text, max).trimEnd()}…` : text;
}

/** `text` as it is when it fits in `max`; else "…" and its last `max` units (whole characters), trimmed. */
export function cutTextStart(text: string, max: number): string {
  if (text.length <= max) return text;
  const first = text.charCodeAt(text.length - max);
  return `…${text.slice(first >= 0xdc00 && first <= 0xdfff ? text.length - max + 1 : text.length - max).trimStart()}`;
}
