import { z } from "zod";
import { SESSION_END_REASONS } from "../signed-out.js";
import { publicUserSchema } from "./auth.js";
import { endpoint } from "./endpoint.js";
import {
  CONFIRM_PASSWORD,
  confirmed,
  newPasswordField,
  optionalEmailField,
  optionalNameField,
  PASSWORD_MAX,
  PASSWORDS_DONT_MATCH,
} from "./fields.js";
import { firstScreenReads } from "./first-screen-reads.js";

/** The account as the browser sees it: defined with sign-in (auth.ts), named here too for the profile screens. */
export { type PublicUser, publicUserSchema } from "./auth.js";

/** PATCH /api/user: name optional, email valid or empty (docs/product.md, Accounts: Profile). */
export const profileBodySchema = z.object({
  name: optionalNameField.optional(),
  email: optionalEmailField("Please enter a valid email").optional(),
});
export type ProfileBody = z.input<typeof profileBodySchema>;
export type ProfileInput = z.output<typeof profileBodySchema>;

/** PATCH /api/user/password (docs/product.md, Accounts: Password change). */
export const passwordChangeBodySchema = confirmed(
  z.object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required").max(PASSWORD_MAX),
    newPassword: newPasswordField,
    confirmPassword: z.string({ error: CONFIRM_PASSWORD }).min(1, CONFIRM_PASSWORD),
    /**
     * Whether the account's personal API tokens end with the change (decision 056): yes unless the person keeps them
     * on purpose (the form's checkbox, on by default). A reset always ends them.
     */
    revokeTokens: z.boolean({ error: "revokeTokens must be true or false" }).default(true),
  }),
  { password: "newPassword", message: PASSWORDS_DONT_MATCH },
);
export type PasswordChangeBody = z.input<typeof passwordChangeBodySchema>;
export type PasswordChangeInput = z.output<typeof passwordChangeBodySchema>;
/** The password form's checkbox (shown to a person with API tokens), and what will happen, in its words (decision 056). */
export const REVOKE_TOKENS_WORDS = {
  label: "Also revoke my API tokens",
  revoked: (count: number) =>
    `Your ${count === 1 ? "API token stops" : `${count} API tokens stop`} working: scripts and apps using ${count === 1 ? "it" : "them"} will need a new one.`,
  kept: (count: number) =>
    `Your ${count === 1 ? "API token keeps" : `${count} API tokens keep`} working. Keep them only if you know where each one is.`,
} as const;

export const messageAnswerSchema = z.object({ message: z.string() });

/** An uploaded file's id (`/api/uploads/{id}`). */
export const uploadParamsSchema = z.object({ id: z.string().regex(/^[a-f0-9]{32}$/, "File not found") });

/**
 * GET /api/session: who is signed in, if anyone (never a 401); with nobody, why the session the browser still holds was
 * ended, when the server knows (`ended`, decision 061), so a page that notices by itself says why as a refused call does.
 */
export const sessionSchema = z.object({ user: publicUserSchema.nullable(), ended: z.enum(SESSION_END_REASONS).optional() });
export type SessionAnswer = z.infer<typeof sessionSchema>;

export const userApi = {
  /** The product's call: the signed-in user, 401 when signed out. */
  me: endpoint({ method: "GET", path: "/api/user", access: "user", response: publicUserSchema }),
  /** The web's session probe (the first screen's read). */
  session: endpoint({ ...firstScreenReads.currentUser, response: sessionSchema }),
  updateProfile: endpoint({ method: "PATCH", path: "/api/user", access: "user", body: profileBodySchema, response: publicUserSchema }),
  changePassword: endpoint({
    method: "PATCH",
    path: "/api/user/password",
    access: "user",
    body: passwordChangeBodySchema,
    response: messageAnswerSchema,
  }),
  /** multipart/form-data with one `file` (PNG, JPEG or WebP, 2 MB at most). */
  uploadAvatar: endpoint({ method: "POST", path: "/api/user/avatar", access: "user", upload: true, response: publicUserSchema }),
  removeAvatar: endpoint({ method: "DELETE", path: "/api/user/avatar", access: "user", response: publicUserSchema }),
  /** The bytes of an uploaded image (avatars, course covers), for signed-in users. */
  upload: endpoint({
    method: "GET",
    path: "/api/uploads/:id",
    access: "user",
    params: uploadParamsSchema,
    response: z.unknown(),
    kind: "file",
  }),
};
