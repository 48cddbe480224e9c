/** What reading a file gives: its text, per page for a PDF (`page` 1-based), as one page (`page: null`) otherwise. */
export type ExtractedPage = { page: number | null; text: string };
export type Extracted = {
  pages: ExtractedPage[];
  pageCount: number | null;
  /**
   * How the chunker reads the text: "markdown" (Markdown, HTML and Word documents, whose headings are "#" lines)
   * or "plain" (PDF, text, CSV, JSON and code, where a line starting with "#" is a comment, not a heading). Absent
   * means "markdown".
   */
  structure?: "markdown" | "plain";
};
