import { z } from "zod";

/** Every failure answers this: a human message, and per-field messages for a form when the input was wrong. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
