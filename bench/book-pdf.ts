import { makePdf } from "../tests/helpers/make-pdf.js";

const TOPICS = ["cells", "rivers", "engines", "markets", "planets", "poems", "bridges", "forests", "metals", "storms"];

/** Page n's text of the benches' book: eighteen sentences about one of ten topics, in paragraphs of six. */
export function bookPageText(n: number): string {
  const topic = TOPICS[n % TOPICS.length] as string;
  const sentences: string[] = [];
  for (let s = 0; s < 18; s++) {
    sentences.push(`Page ${n + 1} explains how ${topic} change over time, with example ${s + 1} about measured values and careful notes.`);
    if (s % 6 === 5) sentences.push("\n\n");
  }
  return sentences.join(" ");
}

/** A real PDF of `pages` pages of that text (tests/helpers/make-pdf.ts), as the ingestion benches read it. */
export const bookPdf = (pages: number) => makePdf(Array.from({ length: pages }, (_, n) => bookPageText(n)));
