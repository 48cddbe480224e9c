import type { ReactNode } from "react";
// `[n]`: a numbered reference, when n is one of the known numbers (the one pattern, shared with the server's citations).
import { NUMBERED_REF } from "../../../shared/numbered-refs.js";

/** Numbered references in a text (`[1]`, a reply's sources): which numbers are real, and how one shows. */
export type NumberedRefs = { numbers: ReadonlySet<number>; render: (n: number) => ReactNode };

/** The text cut at each known `[n]`: strings stay text, numbers are references. An unknown `[n]` stays in the text. */
export function splitNumberedRefs(text: string, numbers: ReadonlySet<number>): (string | number)[] {
  const parts: (string | number)[] = [];
  let last = 0;
  for (const match of text.matchAll(NUMBERED_REF)) {
    const n = Number(match[1]);
    if (!numbers.has(n)) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(n);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
