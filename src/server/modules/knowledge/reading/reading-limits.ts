/**
 * How far reading one file may go (issue 30): past any of these, the file is refused with a clear sentence
 * (`ReadingError`, a 4xx), never read on. Each limit says why it is where it is.
 */
export type ReadingLimits = {
  /** A PDF's pages, checked on its page tree before any page is read: a textbook has under 1,500; a file declaring 100,000 is hostile. */
  maxPages: number;
  /** A DOCX's declared and actual unzipped size: a 500-page Word document with images is under 50 MB unzipped; a zip bomb is GBs. */
  maxUnzippedBytes: number;
  /** Entries in a DOCX zip: a real document has tens (parts, images, rels); thousands only make the reader walk a list. */
  maxZipEntries: number;
  /** The text extracted from one file: 20 million characters is about 10,000 pages of prose, more than any document a chat needs. */
  maxTextChars: number;
  /** The reader thread's V8 heap: a 2,000-page PDF's text and pdf.js's page objects fit in it; a file needing more fails alone, not the server. */
  workerHeapMb: number;
  /** Wall time for one file in the reader thread: a 300-page PDF takes a few seconds; a file still being read after a minute is ended. */
  timeoutMs: number;
  /** A text file up to this size is read on the calling thread (a few milliseconds); a larger one goes to the reader thread too. */
  mainThreadTextBytes: number;
};

export const READING_LIMITS: Readonly<ReadingLimits> = Object.freeze({
  maxPages: 2_000,
  maxUnzippedBytes: 100 * 1024 * 1024,
  maxZipEntries: 2_000,
  maxTextChars: 20_000_000,
  workerHeapMb: 256,
  timeoutMs: 60_000,
  mainThreadTextBytes: 2 * 1024 * 1024,
});

/** Reader threads per instance at once: extraction is CPU-bound, and the machines have two cores; more files wait their turn. */
export const MAX_READER_THREADS = 2;

export function readingLimits(overrides?: Partial<ReadingLimits>): ReadingLimits {
  return { ...READING_LIMITS, ...overrides };
}
