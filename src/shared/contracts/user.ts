import { z } from "zod";
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

/** PATCH /api/user: name optional, email valid or empty (spec 000 section 5, Profile). */
export const profileBodySchema = z.object({
  name: optionalNameField.optional(),
  email: optionalEmailField("Please enter a valid email").optional(),
});
export type ProfileBody = z.input<typeof profileBodySchema>;
export type ProfileInput = z.output<typeof profileBodySchema>;

/** PATCH /api/user/password (spec 000 section 5, Password change). */
export const passwordChangeBodySchema = confirmed(
  z.object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required").max(PASSWORD_MAX),
    newPassword: newPasswordField,
    confirmPassword: z.string({ error: CONFIRM_PASSWORD }).min(1, CONFIRM_PASSWORD),
  }),
  { password: "newPassword", message: PASSWORDS_DONT_MATCH },
);
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

export const messageAnswerSchema = z.object({ message: z.string() });

/** An uploaded file's id (`/api/uploads/{id}`). */
export const uploadParamsSchema = z.object({ id: z.string().regex(/^[a-f0-9]{32}$/, "File not found") });

/** GET /api/session: who is signed in, if anyone (never a 401). */
export const sessionSchema = z.object({ user: publicUserSchema.nullable() });
export type SessionAnswer = z.infer<typeof sessionSchema>;

export const userApi = {
  /** The spec's call: the signed-in user, 401 when signed out. */
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
