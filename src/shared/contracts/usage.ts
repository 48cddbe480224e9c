import { z } from "zod";
import { PLAN_TYPES } from "../constants.js";
import { endpoint } from "./endpoint.js";
import { FILE_BYTES_CEILING, storageUsageSchema } from "./knowledge.js";

/**
 * Usage allowances per plan (issue 16, decision 016): tokens per calendar month and messages per day, both in
 * UTC and both optional (null: unlimited). Admins are never limited.
 */

/** The largest value the `integer` columns hold. */
export const ALLOWANCE_MAX = 2_147_483_647;

const ALLOWANCE_WHOLE = "Allowance must be a whole number, or empty for unlimited";
const allowanceField = z
  .number({ error: ALLOWANCE_WHOLE })
  .int(ALLOWANCE_WHOLE)
  .min(1, "Allowance must be at least 1, or empty for unlimited")
  .max(ALLOWANCE_MAX, `Allowance cannot exceed ${ALLOWANCE_MAX.toLocaleString("en-US")}`)
  .nullable();

/** One plan's allowances. */
export const planAllowanceSchema = z.object({ monthlyTokens: allowanceField, messagesPerDay: allowanceField });
export type PlanAllowance = z.infer<typeof planAllowanceSchema>;

/** Every plan's allowances (PUT replaces them all; GET answers them all). */
export const planAllowancesSchema = z.object({ free: planAllowanceSchema, earlyAccess: planAllowanceSchema });
export type PlanAllowances = z.infer<typeof planAllowancesSchema>;

export const UNLIMITED: PlanAllowance = { monthlyTokens: null, messagesPerDay: null };

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "1 December 2026" (the UTC date, the same for every reader). */
export function utcDayText(at: Date): string {
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The 429 once the month's tokens are spent; `resetsAt` is the first of next month, 00:00 UTC. */
export function tokensSpentMessage(limit: number, resetsAt: Date): string {
  return `You have used your ${count(limit)} tokens for this month. Your allowance resets on ${utcDayText(resetsAt)}.`;
}

/**
 * The 429 while the month's tokens left are held by AI calls under way (decision 028): a wait, not a spent allowance;
 * each call gives back what it did not use when it ends.
 */
export function tokensHeldMessage(limit: number): string {
  return `Your AI replies and calls running now may use the rest of your ${count(limit)} tokens for this month. Try again when they finish.`;
}

/** The 429 once the day's messages are sent. */
export function messagesSpentMessage(limit: number): string {
  return `You have sent your ${count(limit)} ${limit === 1 ? "message" : "messages"} for today. You can send more after midnight UTC.`;
}

/** One allowance as it stands: used, the limit (null: unlimited), what is left, and when it starts again. */
export const allowanceStateSchema = z.object({
  used: z.number().int(),
  limit: z.number().int().nullable(),
  left: z.number().int().nullable(),
  /** ISO time: tokens on the first of next month 00:00 UTC, messages at the next midnight UTC. */
  resetsAt: z.string(),
});
export type AllowanceState = z.infer<typeof allowanceStateSchema>;

/** GET /api/usage: the signed-in user's use of their plan's allowances. */
export const usageSchema = z.object({
  planType: z.enum(PLAN_TYPES),
  /** An admin, or a plan with neither allowance set: nothing is counted against them. */
  unlimited: z.boolean(),
  tokens: allowanceStateSchema,
  messages: allowanceStateSchema,
  /** The server's refusal a new message would get now (null: a message can go). */
  blocked: z.string().nullable(),
  /** The knowledge library against the plan's storage limits (issue 30). */
  storage: storageUsageSchema,
});
export type Usage = z.infer<typeof usageSchema>;

export const usageApi = {
  mine: endpoint({ method: "GET", path: "/api/usage", access: "user", response: usageSchema }),
};

/** Plan limits (admins; the guard on /api/admin/* refuses everyone else). */
export const planAllowancesApi = {
  get: endpoint({ method: "GET", path: "/api/admin/plan-allowances", access: "admin", response: planAllowancesSchema }),
  /** Replaces both plans' allowances; null is unlimited. Logged as `plan_allowances_change`. */
  update: endpoint({
    method: "PUT",
    path: "/api/admin/plan-allowances",
    access: "admin",
    body: planAllowancesSchema,
    response: planAllowancesSchema,
  }),
};

/** The Plan limits form: each field is text, blank meaning unlimited; the output is the PUT body. */
const allowanceText = z
  .string()
  .trim()
  .transform((text) => text.replace(/[,\s_]/g, ""))
  .refine((text) => text === "" || /^\d+$/.test(text), ALLOWANCE_WHOLE)
  .transform((text) => (text === "" ? null : Number(text)))
  .pipe(allowanceField);
const planAllowanceFormSchema = z.object({ monthlyTokens: allowanceText, messagesPerDay: allowanceText });
export const planAllowancesFormSchema = z.object({ free: planAllowanceFormSchema, earlyAccess: planAllowanceFormSchema });
export type PlanAllowancesForm = z.input<typeof planAllowancesFormSchema>;

/** The saved allowances as form text ("" for unlimited). */
export function allowancesToForm(saved: PlanAllowances): PlanAllowancesForm {
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    free: { monthlyTokens: text(saved.free.monthlyTokens), messagesPerDay: text(saved.free.messagesPerDay) },
    earlyAccess: { monthlyTokens: text(saved.earlyAccess.monthlyTokens), messagesPerDay: text(saved.earlyAccess.messagesPerDay) },
  };
}

/**
 * The knowledge library's limits per plan (issue 30): bytes stored, files kept and the largest file, null meaning
 * unlimited (the largest file is never above the server's ceiling, FILE_BYTES_CEILING). The API speaks bytes; the
 * admin's form speaks MB (1 MB = 1024² bytes, as the defaults: 50 MB = 52,428,800 bytes).
 */
export const STORAGE_BYTES_MAX = 1024 ** 5; // 1 PB: far above any disk, far below 2^53
const LIMIT_WHOLE = "Limit must be a whole number, or empty for unlimited";
const bytesLimit = (max: number, maxText: string) =>
  z
    .number({ error: LIMIT_WHOLE })
    .int(LIMIT_WHOLE)
    .min(1, "Limit must be at least 1, or empty for unlimited")
    .max(max, `Limit cannot exceed ${maxText}`)
    .nullable();
export const planStorageLimitSchema = z.object({
  storageBytes: bytesLimit(STORAGE_BYTES_MAX, "1 PB"),
  maxFiles: allowanceField,
  maxFileBytes: bytesLimit(FILE_BYTES_CEILING, `${FILE_BYTES_CEILING / 1024 / 1024} MB`),
});
export type PlanStorageLimit = z.infer<typeof planStorageLimitSchema>;
export const planStorageLimitsSchema = z.object({ free: planStorageLimitSchema, earlyAccess: planStorageLimitSchema });
export type PlanStorageLimits = z.infer<typeof planStorageLimitsSchema>;
export const NO_STORAGE_LIMITS: PlanStorageLimit = { storageBytes: null, maxFiles: null, maxFileBytes: null };

/** The library's limits per plan (admins). */
export const planStorageLimitsApi = {
  get: endpoint({ method: "GET", path: "/api/admin/plan-storage-limits", access: "admin", response: planStorageLimitsSchema }),
  /** Replaces both plans' library limits; null is unlimited. Logged as `plan_allowances_change`. */
  update: endpoint({
    method: "PUT",
    path: "/api/admin/plan-storage-limits",
    access: "admin",
    body: planStorageLimitsSchema,
    response: planStorageLimitsSchema,
  }),
};

/** The form: MB for storage and the largest file (decimals allowed, "0.5"), a count for files; blank is unlimited. */
const MB_TEXT = "Enter a number of MB, or leave it empty for unlimited";
const mbText = (max: number, maxText: string) =>
  z
    .string()
    .trim()
    .transform((text) => text.replace(/[,\s_]/g, ""))
    .refine((text) => text === "" || /^\d+(\.\d+)?$/.test(text), MB_TEXT)
    .transform((text) => (text === "" ? null : Math.round(Number(text) * 1024 * 1024)))
    .pipe(bytesLimit(max, maxText));
const countText = z
  .string()
  .trim()
  .transform((text) => text.replace(/[,\s_]/g, ""))
  .refine((text) => text === "" || /^\d+$/.test(text), LIMIT_WHOLE)
  .transform((text) => (text === "" ? null : Number(text)))
  .pipe(allowanceField);
const planStorageFormSchema = z.object({
  storageBytes: mbText(STORAGE_BYTES_MAX, "1 PB"),
  maxFiles: countText,
  maxFileBytes: mbText(FILE_BYTES_CEILING, `${FILE_BYTES_CEILING / 1024 / 1024} MB`),
});
export const planStorageLimitsFormSchema = z.object({ free: planStorageFormSchema, earlyAccess: planStorageFormSchema });
export type PlanStorageLimitsForm = z.input<typeof planStorageLimitsFormSchema>;

/** The saved limits as form text: MB with at most two decimals, "" for unlimited. */
export function storageLimitsToForm(saved: PlanStorageLimits): PlanStorageLimitsForm {
  const mb = (bytes: number | null) => (bytes === null ? "" : String(Math.round((bytes / 1024 / 1024) * 100) / 100));
  const plan = (limit: PlanStorageLimit) => ({
    storageBytes: mb(limit.storageBytes),
    maxFiles: limit.maxFiles === null ? "" : String(limit.maxFiles),
    maxFileBytes: mb(limit.maxFileBytes),
  });
  return { free: plan(saved.free), earlyAccess: plan(saved.earlyAccess) };
}
