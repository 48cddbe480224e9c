import { cutText } from "../../../../shared/cut-text.js";
/**
 * The one wording of sources given to a model as [n] (decision 037 for chat replies, 039 for course lessons): a rule
 * to cite them by number and never invent one, then each source with its label and text. A chat reply is given the
 * user's files; a lesson its course's material (files, or messages of a chat).
 */

/** A source as the model reads it: its number, where it is from ("notes.pdf, page 3"), its text. */
export interface NumberedSource {
  n: number;
  label: string;
  text: string;
}

const rules = (origin: string) =>
  `Sources from ${origin} follow, each numbered. When you use one, cite it inline by its number in square ` +
  "brackets, like [1] or [2][3]. Cite only the numbers listed here; never invent a number or a source.";

/** A file's passage as a label: its name (on one line) and its page when it has one. */
export const fileLabel = (fileName: string, page: number | null | undefined) =>
  `${fileName.replaceAll("\n", " ")}${page === null || page === undefined ? "" : `, page ${page}`}`;

/** The block appended to a system prompt: the rule, then `[n] label` and the text of each source. */
export function numberedSourcesBlock(origin: string, sources: readonly NumberedSource[]): string {
  const entries = sources.map((s) => `[${s.n}] ${s.label}\n${s.text}`);
  return `${rules(origin)}\n\n${entries.join("\n\n")}`;
}

/** What a citation keeps of its source's text (shown under the reply, exported): about this many characters. */
const EXCERPT_CHARS = 300;

/** A source's text as a citation keeps it: its first `EXCERPT_CHARS` characters, with an ellipsis when cut. */
export const excerptOf = (text: string) => cutText(text, EXCERPT_CHARS);
