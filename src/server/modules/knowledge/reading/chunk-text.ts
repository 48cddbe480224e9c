/**
 * Extracted text to the passages retrieval stores and searches (issue 30): chunks follow headings and paragraphs,
 * are sized in tokens (about `targetTokens`, never over `maxTokens`), overlap the chunk before them by a few
 * sentences' worth of words when a section runs over several, and keep the page they come from and the path of
 * headings above them ("Chapter 2 › Cells"). A chunk never spans two pages or two sections, so its page and path
 * are exact. Deterministic: the same text always gives the same chunks.
 */
import type { Extracted } from "./extracted.js";

export type Chunk = { index: number; text: string; tokens: number; page: number | null; headingPath: string[] };
export type ChunkOptions = { targetTokens?: number; maxTokens?: number; overlapTokens?: number };

export const CHUNK_DEFAULTS = { targetTokens: 400, maxTokens: 600, overlapTokens: 60 } as const;

/**
 * Tokens, estimated in one pass over the characters (no tokenizer's tables loaded, and exactly additive over
 * whitespace, so the sums the chunker adds are the counts of the text it writes): a run of Latin letters counts one
 * token per 6 letters or part, other letters (accented, Cyrillic, Greek...) one per 2, as they take more tokens a letter;
 * a run of digits one per 3, a run of ASCII punctuation one per 2, a CJK character or one outside the BMP one. Measured
 * against OpenAI's o200k tokenizer (gpt-tokenizer, chunk-text.test.ts) it lands a little above on English prose and
 * code (about +5% to +20%): a chunk is never larger than its count says. Sizes only need to be about right; an
 * embedding model takes 8,000 tokens, far above a chunk's 600.
 */
export function countTokens(text: string): number {
  let tokens = 0;
  /** The current run: letters (a Latin one weighs 1, another 3; 6 make a token), digits, or punctuation. */
  let letters = 0;
  let digits = 0;
  let punctuation = 0;
  const endRun = () => {
    if (letters) tokens += Math.ceil(letters / 6);
    if (digits) tokens += Math.ceil(digits / 3);
    if (punctuation) tokens += Math.ceil(punctuation / 2);
    letters = 0;
    digits = 0;
    punctuation = 0;
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c <= 32) {
      endRun();
    } else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
      if (digits || punctuation) endRun();
      letters += 1;
    } else if (c >= 48 && c <= 57) {
      if (letters || punctuation) endRun();
      digits += 1;
    } else if (c < 128) {
      if (letters || digits) endRun();
      punctuation += 1;
    } else if (
      (c >= 0x3040 && c <= 0x30ff) ||
      (c >= 0x3400 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff)
    ) {
      // Kana, CJK ideographs, Hangul: about a token each.
      endRun();
      tokens += 1;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      // A character outside the BMP (an emoji, a rare ideograph): a token or more; its low half is skipped.
      endRun();
      tokens += 1;
      i += 1;
    } else {
      if (digits || punctuation) endRun();
      letters += 3;
    }
  }
  endRun();
  return tokens;
}

type Block = { text: string; tokens: number; page: number | null; path: string[]; heading: boolean };

// Linear on any line (issue 30 review): the title is taken whole, then its closing #s and spaces are cut by closingHashes().
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;

/** A heading's title without its optional closing sequence ("## Title ##") and trailing spaces, in one pass from the end. */
function headingTitle(raw: string): string {
  let end = raw.length;
  while (end > 0 && (raw[end - 1] === " " || raw[end - 1] === "\t")) end -= 1;
  let hashes = end;
  while (hashes > 0 && raw[hashes - 1] === "#") hashes -= 1;
  // Closing #s count only after a space (or as the whole title, which leaves it empty).
  if (hashes < end && (hashes === 0 || raw[hashes - 1] === " " || raw[hashes - 1] === "\t")) end = hashes;
  while (end > 0 && (raw[end - 1] === " " || raw[end - 1] === "\t")) end -= 1;
  return raw.slice(0, end);
}
const FENCE = /^ {0,3}(```|~~~)/;

/** Paragraphs (blank-line separated) and, in Markdown, heading lines, each with the heading path it sits under. */
function blocksOf(extracted: Extracted): Block[] {
  const markdown = (extracted.structure ?? "markdown") === "markdown";
  const blocks: Block[] = [];
  let stack: { level: number; title: string }[] = [];
  for (const { page, text } of extracted.pages) {
    let paragraph: string[] = [];
    let fenced = false;
    const path = () => stack.map((h) => h.title);
    const endParagraph = () => {
      const body = paragraph
        .map((line) => line.trimEnd())
        .join("\n")
        .trim();
      paragraph = [];
      if (body) blocks.push({ text: body, tokens: countTokens(body), page, path: path(), heading: false });
    };
    for (const line of text.split("\n")) {
      if (markdown && FENCE.test(line)) fenced = !fenced;
      const heading = markdown && !fenced ? HEADING.exec(line) : null;
      const title = heading ? headingTitle(heading[2]!).trim() : "";
      if (heading && title) {
        endParagraph();
        const level = heading[1]!.length;
        stack = [...stack.filter((h) => h.level < level), { level, title }];
        const own = line.trim();
        blocks.push({ text: own, tokens: countTokens(own), page, path: path(), heading: true });
      } else if (line.trim() === "" && !fenced) {
        endParagraph();
      } else {
        paragraph.push(line);
      }
    }
    endParagraph();
  }
  return blocks;
}

/** Pieces of `text` of at most `limit` tokens: whole sentences where they fit, else words, else parts of a word. */
function split(text: string, limit: number): string[] {
  if (countTokens(text) <= limit) return [text];
  const sentences = text.split(/(?<=[.!?;。！？])\s+/);
  const units = sentences.length > 1 ? sentences : text.split(/\s+/);
  if (units.length === 1) {
    // One "word" longer than the limit (a long URL, base64): cut it by characters.
    const pieces: string[] = [];
    const size = Math.max(1, limit * 3);
    for (let at = 0; at < text.length; at += size) pieces.push(...split(text.slice(at, at + size), limit));
    return pieces;
  }
  const pieces: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const unit of units.flatMap((u) => split(u, limit))) {
    const size = countTokens(unit);
    if (current.length > 0 && tokens + size > limit) {
      pieces.push(current.join(" "));
      current = [];
      tokens = 0;
    }
    current.push(unit);
    tokens += size;
  }
  if (current.length > 0) pieces.push(current.join(" "));
  return pieces.filter((p) => p.trim() !== "");
}

/** The last words of `text` worth at most `limit` tokens, starting at a sentence when one starts within them. */
function tail(text: string, limit: number): string {
  if (limit <= 0) return "";
  const words = text.split(/\s+/).filter(Boolean);
  let tokens = 0;
  let from = words.length;
  while (from > 0) {
    const size = countTokens(words[from - 1]!);
    if (tokens + size > limit) break;
    tokens += size;
    from -= 1;
  }
  const kept = words.slice(from);
  // Prefer to begin at a sentence: after the first word that ends one, if that leaves something.
  const end = kept.findIndex((w) => /[.!?;。！？]$/.test(w));
  if (end >= 0 && end < kept.length - 1) return kept.slice(end + 1).join(" ");
  return kept.join(" ");
}

export function chunkText(extracted: Extracted, options: ChunkOptions = {}): Chunk[] {
  const maxTokens = Math.max(1, options.maxTokens ?? CHUNK_DEFAULTS.maxTokens);
  const targetTokens = Math.min(maxTokens, Math.max(1, options.targetTokens ?? CHUNK_DEFAULTS.targetTokens));
  // An overlap leaves room in a chunk for new text: at most a quarter of the target.
  const overlapTokens = Math.max(0, Math.min(options.overlapTokens ?? CHUNK_DEFAULTS.overlapTokens, Math.floor(targetTokens / 4)));
  const pieceLimit = Math.max(1, maxTokens - overlapTokens);

  const chunks: Chunk[] = [];
  let parts: string[] = [];
  let tokens = 0;
  /** Whether the chunk being built holds a paragraph (not only headings), and anything not from the chunk before. */
  let hasBody = false;
  let hasNew = false;
  let page: number | null = null;
  let path: string[] = [];

  const emit = () => {
    if (hasNew) {
      const text = parts.join("\n\n");
      chunks.push({ index: chunks.length, text, tokens: countTokens(text), page, headingPath: path });
    }
    parts = [];
    tokens = 0;
    hasBody = false;
    hasNew = false;
  };

  for (const block of blocksOf(extracted)) {
    // A chunk never spans two pages; a heading starts a chunk, unless the chunk so far holds only headings
    // (a chapter's title, then its first section's): then it gathers them, and takes the deepest path.
    if (block.page !== page || (block.heading && hasBody)) emit();
    page = block.page;
    path = block.path;
    if (block.heading) {
      parts.push(block.text);
      tokens += block.tokens;
      hasNew = true;
      continue;
    }
    for (const piece of split(block.text, pieceLimit)) {
      const size = countTokens(piece);
      if (hasBody && tokens + size > targetTokens) {
        // Full: the next chunk starts with the end of this one, so a passage cut here is whole in one of them.
        const previous = parts.join("\n\n");
        emit();
        const overlap = tail(previous, Math.min(overlapTokens, maxTokens - size));
        if (overlap) {
          parts.push(overlap);
          tokens += countTokens(overlap);
        }
      }
      // Headings alone can leave too little room (a long title): they go out as their own chunk.
      if (tokens + size > maxTokens) emit();
      parts.push(piece);
      tokens += size;
      hasBody = true;
      hasNew = true;
    }
  }
  emit();
  return chunks;
}
