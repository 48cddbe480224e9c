/**
 * A PDF's text, page by page, through unpdf (pdf.js built for servers). The page count comes from the page tree
 * before any page is read, so a file declaring more pages than the limit is refused at once. Runs in the reader
 * thread (extract-worker.ts): pdf.js parses untrusted bytes synchronously for long stretches.
 */
import { getDocumentProxy } from "unpdf";
import type { Extracted, ExtractedPage } from "./extracted.js";
import { ReadingError, tooManyPagesMessage, tooMuchTextMessage, UNREADABLE_MESSAGE } from "./reading-error.js";
import type { ReadingLimits } from "./reading-limits.js";

type TextItem = { str?: string; hasEOL?: boolean };

export async function extractPdf(bytes: Uint8Array, limits: ReadingLimits): Promise<Extracted> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes the buffer over (it may detach it): give it its own copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      enableXfa: false,
      useSystemFonts: false,
      disableFontFace: true,
      stopAtErrors: false,
      verbosity: 0,
    });
  } catch {
    // Damaged, not a PDF after all, or encrypted with a password we do not have.
    throw new ReadingError(UNREADABLE_MESSAGE);
  }
  try {
    const pageCount = pdf.numPages;
    if (!Number.isInteger(pageCount) || pageCount < 1) throw new ReadingError(UNREADABLE_MESSAGE);
    if (pageCount > limits.maxPages) throw new ReadingError(tooManyPagesMessage(limits.maxPages), "PAYLOAD_TOO_LARGE");
    const pages: ExtractedPage[] = [];
    let chars = 0;
    for (let number = 1; number <= pageCount; number += 1) {
      let text: string;
      try {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        text = (content.items as TextItem[]).map((item) => (item.str ?? "") + (item.hasEOL ? "\n" : "")).join("");
        page.cleanup();
      } catch {
        throw new ReadingError(UNREADABLE_MESSAGE);
      }
      chars += text.length;
      if (chars > limits.maxTextChars) throw new ReadingError(tooMuchTextMessage(limits.maxTextChars), "PAYLOAD_TOO_LARGE");
      pages.push({ page: number, text: text.replaceAll("\0", "").trim() });
    }
    return { pages, pageCount, structure: "plain" };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}
