/** A piece of a user's file found for a question (issue 30): what a reply is given, and what a citation opens. */
export interface RetrievedPassage {
  chunkId: number;
  fileId: number;
  fileName: string;
  /** A PDF's 1-based page, null for other files. */
  page: number | null;
  /** "Chapter 2 › Cells", empty when the file has no headings. */
  headingPath: string;
  content: string;
  tokens: number;
  /** Fused rank score (higher is better); only its order matters. */
  score: number;
}
