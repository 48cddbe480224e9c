import { z } from "zod";

/**
 * A passage a reply was given as [n] (issue 30, decision 037: the chat's own retrieval; decision 055: a search_files
 * call's passages), as the browser sees it: never the chunk's id.
 */
export const citationSchema = z.object({
  n: z.number().int(),
  fileId: z.number().int(),
  fileName: z.string(),
  /** A PDF's 1-based page, null otherwise (and for a whole document given at once). */
  page: z.number().int().nullable(),
  excerpt: z.string(),
});
export type Citation = z.infer<typeof citationSchema>;

/**
 * A source's passage as its side panel shows it, inside the text around it (decision 058): a reply's citation and a
 * lesson's source read it alike.
 */
export const passageInContextSchema = z.object({
  /**
   * The whole passage as the model was given it (never cut): a searched piece, or a whole document's page or section.
   * Whoever may read only the excerpt (a file deleted since; a lesson's reader) gets the stored excerpt.
   */
  passage: z.string(),
  /**
   * The text of the pieces before and after it in the file (up to ~600 characters each, cut between two words, "" at an
   * end), without the words the passage repeats from them; and their pages when those differ from the passage's (null
   * otherwise).
   */
  before: z.string(),
  after: z.string(),
  beforePage: z.number().int().nullable(),
  afterPage: z.number().int().nullable(),
  /** "Chapter 2 › Cells", "" when the file has no headings. */
  headingPath: z.string(),
});

/**
 * A source as a page shows it to someone who may not read the file (a shared chat's visitor, a catalogue preview's
 * reader; decision 058): its number, its name and its page, never its text.
 */
export const namedSourceSchema = z.object({
  n: z.number().int(),
  name: z.string(),
  page: z.number().int().nullable(),
});
export type NamedSource = z.infer<typeof namedSourceSchema>;
