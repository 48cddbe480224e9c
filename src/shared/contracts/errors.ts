import { z } from "zod";
import { SIGNED_OUT_REASONS } from "../signed-out.js";

/** A signed-in user who is not an admin, on an admin endpoint (403) or page (Access Denied). */
export const ADMINS_ONLY = "You don't have permission to access this area.";

/** Every failure answers this: a human message, and per-field messages for a form when the input was wrong. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
  /** A 401's why, when the server knows it: the session was ended for its browser (issue 29, decision 061). */
  reason: z.enum(SIGNED_OUT_REASONS).optional(),
  /** A lesson still locked by drip release (403): when it opens, ISO 8601 (issue 32). */
  opensAt: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
