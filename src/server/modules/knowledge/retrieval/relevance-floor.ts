/**
 * The relevance floor (decision 067): what a passage must clear to be planned as a lesson's source, or given to the
 * model that writes the lesson. Retrieval ranks by reciprocal rank fusion, whose score says only where a passage stood
 * in each list, never how well it matches: the nearest pieces by meaning are always "found", related or not, and a
 * piece that shares one common word with the question is a full-text hit. So the floor is judged on each kind's own
 * evidence, and a passage clears it when either kind says it is close enough:
 *
 * - **Words** (the full-text search, and a chat's messages ranked in memory): the share of the question's distinct
 *   words (less the commonest, as the search leaves them out) that the passage holds. `ts_rank` is not used: it has no
 *   upper bound and grows with repeats, so one number cannot mean "related" for every question.
 * - **Meaning** (vectors): how far the passage's cosine similarity rises above what the same model gives unrelated
 *   text, as a share of the way from there to identical. Models place unrelated text very differently (about 0.1 for
 *   OpenAI's text-embedding-3 models and all-MiniLM, 0.4 for nomic-embed-text, 0.7 for text-embedding-ada-002 and
 *   mistral-embed), so one fixed similarity would keep everything for some and drop everything for others; the
 *   baseline is measured with the model in use, on a few fixed everyday texts (`CONTROL_TEXTS`).
 *
 * A table of contents is never a source, whatever it matches (it holds every chapter's title): a piece made mostly of
 * contents entries (a title, a dotted leader and a page number; or a Markdown link to an anchor) is left out.
 */

export const RELEVANCE_FLOOR = {
  /** Words: at least this share of the question's words… */
  wordShare: 0.25,
  /** …and at least this many of them (or all, for a shorter question). */
  minWords: 2,
  /** Meaning: at least this share of the way from the model's unrelated baseline to identical. */
  meaningLift: 0.25,
} as const;

/**
 * Everyday texts on topics no course is likely to share all of, embedded once per model: a question's similarity to
 * them (their median, so one that happens to be related does not move it) is that model's level for unrelated text.
 */
export const CONTROL_TEXTS = [
  "The bakery on the corner opens at seven and sells rye bread, croissants and a plum cake on Sundays.",
  "Our train was held for twenty minutes by a signal fault, so we missed the connection and waited on the platform.",
  "The match ended in a draw after a late penalty, and the fans kept singing until the stadium lights went out.",
  "Please return the library books by Friday; the late fee is ten cents a day for each book.",
  "My cousin painted the kitchen yellow last spring and hung a clock shaped like a teapot above the door.",
] as const;

/** The words of a text as the floor counts them: lower-cased runs of letters and digits. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** How many of the question's words (`queryWords`: distinct, lower-cased, less the commonest) `text` holds. */
export function matchedWords(words: readonly string[], text: string): number {
  const held = wordsOf(text);
  return words.filter((word) => held.has(word)).length;
}

/** Whether `text` holds enough of the question's words (`RELEVANCE_FLOOR.wordShare`, at least `minWords`). */
export function clearsWordFloor(words: readonly string[], text: string): boolean {
  if (words.length === 0) return false;
  const needed = Math.max(Math.min(RELEVANCE_FLOOR.minWords, words.length), Math.ceil(words.length * RELEVANCE_FLOOR.wordShare));
  return matchedWords(words, text) >= needed;
}

/** Cosine similarity (vectors of any length; 0 for a vector of zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/** A question's level for unrelated text with this model: the median of its similarities to the control texts. */
export function baselineOf(query: readonly number[], controls: readonly (readonly number[])[]): number {
  if (controls.length === 0) return 0;
  const sims = controls.map((control) => cosine(query, control)).sort((a, b) => a - b);
  const mid = Math.floor(sims.length / 2);
  return sims.length % 2 ? (sims[mid] ?? 0) : ((sims[mid - 1] ?? 0) + (sims[mid] ?? 0)) / 2;
}

/** How far `similarity` rises above `baseline`, as a share of the way to 1 (negative below it). */
export function liftOf(similarity: number, baseline: number): number {
  const base = Math.min(0.99, Math.max(0, baseline));
  return (similarity - base) / (1 - base);
}

/** A contents entry: a dotted leader (four dots or more, spaced or not, or an ellipsis) and a page number. */
const LEADER_ENTRY = /(?:\.\s?){4,}\s*\d{1,4}\b|…\s*\d{1,4}\b/g;
/** A Markdown contents entry: a link to an anchor of the same document. */
const ANCHOR_ENTRY = /\[[^\]\n]{1,200}\]\(#[^)\s]*\)/g;
/** Contents entries take at most about this many characters each (a title and its number, leaders left out). */
const CHARS_PER_ENTRY = 80;

/**
 * Whether a piece is a table of contents: at least four entries, and so many that they are most of what it holds
 * (one per 80 characters once the leaders are taken out). A page of prose that cites a few pages stays a passage.
 */
export function isContentsPage(text: string): boolean {
  const leaders = text.match(LEADER_ENTRY)?.length ?? 0;
  const anchors = text.match(ANCHOR_ENTRY)?.length ?? 0;
  const entries = leaders + anchors;
  if (entries < 4) return false;
  const rest = text
    .replace(/(?:\.\s?){4,}/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return entries * CHARS_PER_ENTRY >= rest.length;
}

/** What a found passage is judged on: the question's words, its text, and (vectors) its similarity and the baseline. */
export interface FloorEvidence {
  words: readonly string[];
  text: string;
  /** Cosine similarity to the question; absent when the vector search did not find it (or did not run). */
  similarity?: number | undefined;
  /** The model's level for unrelated text for this question (`baselineOf`); 0 when unknown. */
  baseline?: number | undefined;
}

/** Whether a passage clears the floor: not a contents page, and close enough by its words or by its meaning. */
export function clearsFloor(evidence: FloorEvidence): boolean {
  if (isContentsPage(evidence.text)) return false;
  if (clearsWordFloor(evidence.words, evidence.text)) return true;
  return evidence.similarity !== undefined && liftOf(evidence.similarity, evidence.baseline ?? 0) >= RELEVANCE_FLOOR.meaningLift;
}
