import { z } from "zod";
import { PLAN_TYPES, ROLES } from "../constants.js";
import { idParamsSchema, idText } from "./common.js";
import { endpoint } from "./endpoint.js";
import {
  EMAIL_INVALID,
  newPasswordField,
  optionalEmailField,
  optionalNameText,
  optionalNewPasswordField,
  usernameField,
} from "./fields.js";

/** An account is active (signs in) or inactive (disabled by an admin: no sign-in, no session). */
export const USER_STATUSES = ["active", "inactive"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** What a disabled account is told when its password was right (POST /api/login answers 403). */
export { ACCOUNT_DISABLED_MESSAGE } from "../signed-out.js";

/** Why an admin's change is refused: never themselves, never the last active admin. */
export const ADMIN_USER_REFUSALS = {
  deleteSelf: "You cannot delete your own account",
  disableSelf: "You cannot disable your own account",
  demoteSelf: "You cannot demote your own account",
  deleteLastAdmin: "You cannot delete the last admin",
  disableLastAdmin: "You cannot disable the last admin",
  demoteLastAdmin: "You cannot demote the last admin",
} as const;

// Control characters (NUL first of all) and unpaired surrogates cannot be stored as text: refused up front.
const UNSAFE_TEXT = /[\p{Cc}\p{Cs}]/u;
const isSafeText = (value: string) => !UNSAFE_TEXT.test(value);

const usernameInput = usernameField.refine(isSafeText, "Username contains characters that are not allowed");

/** Optional: empty (or null) clears it. */
const nameInput = optionalNameText.refine(isSafeText, "Name contains characters that are not allowed").nullable();

/** A valid address or empty (no email); lower-cased. */
const emailInput = optionalEmailField(EMAIL_INVALID).nullable();

const roleInput = z.enum(ROLES, { error: "Role must be user or admin" });
const planInput = z.enum(PLAN_TYPES, { error: "Plan must be free or earlyAccess" });
const statusInput = z.enum(USER_STATUSES, { error: "Status must be active or inactive" });

/** POST /api/admin/users and the Add User form. */
export const createAdminUserBodySchema = z.object({
  username: usernameInput,
  name: nameInput.optional(),
  email: emailInput.optional(),
  password: newPasswordField,
  role: roleInput.default("user"),
  planType: planInput.default("free"),
});
export type CreateAdminUserBody = z.input<typeof createAdminUserBodySchema>;
export type CreateAdminUserInput = z.output<typeof createAdminUserBodySchema>;

/**
 * PATCH /api/admin/users/{id} and the Edit User form: only what is sent changes. A blank password keeps
 * the current one. The username cannot change (sending it is a 400, not a silent no-op).
 */
export const updateAdminUserBodySchema = z.object({
  username: z.never({ error: "Username cannot be changed" }).optional(),
  name: nameInput.optional(),
  email: emailInput.optional(),
  password: optionalNewPasswordField.optional(),
  role: roleInput.optional(),
  planType: planInput.optional(),
  status: statusInput.optional(),
});
export type UpdateAdminUserBody = z.input<typeof updateAdminUserBodySchema>;
export type AdminUserPatch = z.output<typeof updateAdminUserBodySchema>;

/** Pages of the list: newest first; the next cursor (the last id) comes in the x-next-cursor header. */
export const ADMIN_USERS_PAGE_SIZE = { default: 25, max: 100 } as const;

export const adminUserListQuerySchema = z.object({
  /** Username, email or name, anywhere, any case. */
  search: z
    .string({ error: "Search must be text" })
    .trim()
    .max(100, "Search text cannot exceed 100 characters")
    .refine(isSafeText, "Search contains characters that are not allowed")
    .optional(),
  /** Empty means every status. */
  status: z.union([statusInput, z.literal("")]).optional(),
  limit: z.coerce
    .number({ error: "Limit must be a number" })
    .int("Limit must be a whole number")
    .min(1, "Limit must be at least 1")
    .max(ADMIN_USERS_PAGE_SIZE.max, `Limit cannot exceed ${ADMIN_USERS_PAGE_SIZE.max}`)
    .default(ADMIN_USERS_PAGE_SIZE.default),
  cursor: idText.optional(),
});
export type AdminUserListQuery = z.output<typeof adminUserListQuerySchema>;

/** Tokens a user's messages used over the last 30 days. */
export const tokenUsageSchema = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });
export type TokenUsage = z.infer<typeof tokenUsageSchema>;
export const USAGE_WINDOW_DAYS = 30;

/**
 * Use against the plan's allowances now (decision 016): tokens this month and user messages today (UTC), with the
 * plan's limits (null: unlimited; always null for an admin).
 */
export const planUsageSchema = z.object({
  tokensThisMonth: z.number().int(),
  monthlyTokens: z.number().int().nullable(),
  messagesToday: z.number().int(),
  messagesPerDay: z.number().int().nullable(),
});
export type PlanUsage = z.infer<typeof planUsageSchema>;

/** A user as the admin sees it (never the password hash). */
export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  role: z.enum(ROLES),
  planType: z.enum(PLAN_TYPES),
  status: z.enum(USER_STATUSES),
  createdAt: z.string(),
  usage: tokenUsageSchema,
  planUsage: planUsageSchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** Counted once per page view (and after a change), never per keystroke of the search. */
export const adminUserSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
  admins: z.number().int(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

/** User Management (docs/product.md, Admin back office): every call needs a signed-in admin (one hook for /api/admin/*). */
export const adminUsersApi = {
  list: endpoint({
    method: "GET",
    path: "/api/admin/users",
    access: "admin",
    query: adminUserListQuerySchema,
    response: z.array(adminUserSchema),
    kind: "paged",
  }),
  summary: endpoint({ method: "GET", path: "/api/admin/users/summary", access: "admin", response: adminUserSummarySchema }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/users",
    access: "admin",
    body: createAdminUserBodySchema,
    response: adminUserSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/users/:id",
    access: "admin",
    params: idParamsSchema,
    body: updateAdminUserBodySchema,
    response: adminUserSchema,
  }),
  /** Deletes the account and everything it owns (chats, personalities, courses, public ones too, uploads, sessions). */
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/users/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
