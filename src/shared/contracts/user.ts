import { z } from "zod";
import { emailField, publicUserSchema } from "./auth.js";
import { endpoint } from "./endpoint.js";
import { firstScreenReads } from "./first-screen-reads.js";

/** The account as the browser sees it: defined with sign-in (auth.ts), named here too for the profile screens. */
export { type PublicUser, publicUserSchema } from "./auth.js";

/** PATCH /api/user: name optional, email valid or empty (spec 000 section 5, Profile). */
export const profileBodySchema = z.object({
  name: z
    .string()
    .trim()
    .max(100, "Name cannot exceed 100 characters")
    .refine((v) => v === "" || v.length >= 2, "Name must be at least 2 characters")
    .optional(),
  email: z
    .string()
    .trim()
    .refine((v) => v === "" || emailField.safeParse(v).success, "Please enter a valid email")
    .optional(),
});
export type ProfileBody = z.input<typeof profileBodySchema>;
export type ProfileInput = z.output<typeof profileBodySchema>;

/** PATCH /api/user/password (spec 000 section 5, Password change). */
export const passwordChangeBodySchema = z
  .object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required").max(200),
    newPassword: z
      .string({ error: "Password must be at least 6 characters" })
      .min(6, "Password must be at least 6 characters")
      .max(200, "Password cannot exceed 200 characters"),
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine((data) => data.newPassword === data.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });
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
