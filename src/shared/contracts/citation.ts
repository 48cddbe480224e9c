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
