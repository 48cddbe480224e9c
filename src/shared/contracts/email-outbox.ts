import { z } from "zod";
import { idParamsSchema, idText } from "./common.js";
import { endpoint } from "./endpoint.js";

/**
 * The outbox (issue 11): every email is stored before it is sent. queued → sending → sent, or back to
 * queued with a delay after a failure, `failed` after 24 hours of retries, and `test` when no SMTP server
 * is configured (the product's "virtual test inbox": kept, never sent, previewable by admins).
 */
export const OUTBOX_STATUSES = ["queued", "sending", "sent", "failed", "test"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  test: "Test inbox",
};

/** A message in one of these states can be queued again by an admin. */
export const RESENDABLE_STATUSES: readonly OutboxStatus[] = ["sent", "failed", "test"];
export const OUTBOX_NOT_RESENDABLE = "This email is already waiting to be sent.";
export const OUTBOX_EMAIL_NOT_FOUND = "Email not found";

export const OUTBOX_PAGE_SIZE = 25;

/** GET /api/admin/email-outbox: newest first; `cursor` is the id of the last row seen; `status=` (empty) means all. */
export const outboxListQuerySchema = z.object({
  status: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(OUTBOX_STATUSES, { error: `Status must be one of ${OUTBOX_STATUSES.join(", ")}` }).optional(),
  ),
  limit: z.coerce
    .number({ error: "Limit must be a number from 1 to 100" })
    .int("Limit must be a number from 1 to 100")
    .min(1, "Limit must be a number from 1 to 100")
    .max(100, "Limit must be a number from 1 to 100")
    .default(OUTBOX_PAGE_SIZE),
  cursor: idText.optional(),
});
export type OutboxListQuery = z.output<typeof outboxListQuerySchema>;
export type OutboxListQueryInput = z.input<typeof outboxListQuerySchema>;

export const outboxEmailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  templateSlug: z.string().nullable(),
  subject: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string(),
});
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;

/** One message with its bodies, for the preview page (JSON: the HTML is shown only in a sandboxed iframe). */
export const outboxEmailDetailSchema = outboxEmailSchema.extend({
  text: z.string(),
  html: z.string(),
});
export type OutboxEmailDetail = z.infer<typeof outboxEmailDetailSchema>;

/** The outbox (admins; the guard on /api/admin/* refuses everyone else). */
export const emailOutboxApi = {
  list: endpoint({
    method: "GET",
    path: "/api/admin/email-outbox",
    access: "admin",
    query: outboxListQuerySchema,
    response: z.array(outboxEmailSchema),
    kind: "paged",
  }),
  get: endpoint({
    method: "GET",
    path: "/api/admin/email-outbox/:id",
    access: "admin",
    params: idParamsSchema,
    response: outboxEmailDetailSchema,
  }),
  /** A sent, failed or test message is queued again now (fresh attempts); answers the row. */
  resend: endpoint({
    method: "POST",
    path: "/api/admin/email-outbox/:id/resend",
    access: "admin",
    params: idParamsSchema,
    response: outboxEmailSchema,
  }),
};
