import { cutText, cutTextStart } from "../../../../shared/cut-text.js";

/**
 * A cited passage as its model was given it, inside the text around it in its file (issue 30's citation panel; the
 * review "A citation does not show what it cites"). The chunker starts a piece with the last words of the one before
 * (its overlap, `chunk-text.ts`), so the neighbours are taken without the words the passage repeats, and the passage is
 * never cut: the panel shows what the model read, then the file around it.
 */

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/** Words of `next` that repeat the end of `previous` (the chunker's overlap), counted from its start. */
export function overlapWords(previous: readonly string[], next: readonly string[]): number {
  const most = Math.min(previous.length, next.length - 1, 200);
  for (let n = most; n > 0; n--) {
    let same = true;
    for (let i = 0; i < n && same; i++) same = previous[previous.length - n + i] === next[i];
    if (same) return n;
  }
  return 0;
}

/** `text` after its first `n` words, its own spacing and line breaks kept. */
export function afterWords(text: string, n: number): string {
  const word = /\S+/g;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const match = word.exec(text);
    if (!match) return "";
    end = match.index + match[0].length;
  }
  return text.slice(end).trimStart();
}

/** `text` without its last `n` words, its own spacing and line breaks kept. */
function withoutLastWords(text: string, n: number): string {
  if (n <= 0) return text;
  const starts = [...text.matchAll(/\S+/g)].map((m) => m.index);
  const cut = starts[starts.length - n];
  return cut === undefined ? "" : text.slice(0, cut).trimEnd();
}

/** Pieces in order, each without the words it repeats from the one before (`previous`: the piece before the first). */
export function withoutOverlap(pieces: readonly string[], previous = ""): string[] {
  let before = wordsOf(previous);
  return pieces.map((piece) => {
    const words = wordsOf(piece);
    const repeated = overlapWords(before, words);
    before = words;
    return repeated > 0 ? afterWords(piece, repeated) : piece;
  });
}

/** A whole document's part as its model reads it (decision 037): its pieces without their overlap, a blank line apart. */
export const joinPieces = (pieces: readonly string[], previous = "") => withoutOverlap(pieces, previous).join("\n\n");

/** The text shown around a passage, on each side at most this many characters (cut at the far end, "…"). */
export const NEIGHBOUR_CHARS = 600;

/**
 * The text before a passage, its last `max` characters at most: "…" then a word's start, the word the cut would split
 * left out (a word longer than half of `max`, a URL or a run of digits, is cut inside instead).
 */
export function neighbourBefore(text: string, max = NEIGHBOUR_CHARS): string {
  if (text.length <= max) return text;
  const from = text.length - max;
  if (/\s/.test(text.charAt(from - 1))) return cutTextStart(text, max);
  const space = text.slice(from).search(/\s/);
  return space >= 0 && space <= max / 2 ? cutTextStart(text, max - space) : cutTextStart(text, max);
}

/**
 * The text after a passage, its first `max` characters at most: a word's end then "…", the word the cut would split
 * left out (a word longer than half of `max`, a URL or a run of digits, is cut inside instead).
 */
export function neighbourAfter(text: string, max = NEIGHBOUR_CHARS): string {
  if (text.length <= max) return text;
  if (/\s/.test(text.charAt(max))) return cutText(text, max);
  const space = text.slice(0, max).search(/\s\S*$/);
  return space >= 0 && max - space <= max / 2 ? cutText(text, space) : cutText(text, max);
}

export interface PieceAround {
  content: string;
  page: number | null;
}

export interface PassageInContext {
  passage: string;
  before: string;
  after: string;
  beforePage: number | null;
  afterPage: number | null;
}

/**
 * The passage given to the model and its neighbours: `pieces` are the passage's own pieces in order (one for a searched
 * passage, given as stored; a whole document's part, `joined`, given without the overlap of each piece, the first's
 * with `before`), `before` and `after` the pieces of the file on either side (null at an end). Neither neighbour repeats
 * a word of the passage, and each is cut to `NEIGHBOUR_CHARS` away from the passage, between two words; its page is
 * named when it is not the passage's.
 */
export function passageInContext(input: {
  pieces: readonly PieceAround[];
  joined: boolean;
  before: PieceAround | null;
  after: PieceAround | null;
}): PassageInContext {
  const { before, after, pieces } = input;
  const texts = pieces.map((p) => p.content);
  const passage = input.joined ? joinPieces(texts, before?.content ?? "") : texts.join("\n\n");
  const words = wordsOf(passage);
  const shownBefore = before ? withoutLastWords(before.content, overlapWords(wordsOf(before.content), words)) : "";
  const shownAfter = after ? afterWords(after.content, overlapWords(words, wordsOf(after.content))) : "";
  const otherPage = (near: PieceAround | null, own: PieceAround | undefined) =>
    near && near.page !== null && near.page !== (own?.page ?? null) ? near.page : null;
  return {
    passage,
    before: neighbourBefore(shownBefore),
    after: neighbourAfter(shownAfter),
    beforePage: shownBefore ? otherPage(before, pieces[0]) : null,
    afterPage: shownAfter ? otherPage(after, pieces.at(-1)) : null,
  };
}
