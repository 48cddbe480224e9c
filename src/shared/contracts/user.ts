import { z } from "zod";
import { PLAN_TYPES, ROLES } from "../constants.js";
import { emailField } from "./auth.js";

export const publicUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  planType: z.enum(PLAN_TYPES),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

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
export type ProfileBody = z.infer<typeof profileBodySchema>;

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
