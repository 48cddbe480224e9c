import { z } from "zod";
import { PLAN_TYPES, ROLES } from "../constants.js";
import { endpoint } from "./endpoint.js";
import { firstScreenCalls } from "./first-screen-reads.js";

/** Rules and messages of spec 000 section 5, written once for the forms and the server. */
export const usernameField = z
  .string({ error: "Username is required" })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(50, "Username cannot exceed 50 characters");

export const nameField = z
  .string({ error: "Name is required" })
  .trim()
  .min(2, "Name must be at least 2 characters")
  .max(100, "Name cannot exceed 100 characters");

export const emailField = z
  .string({ error: "Please enter a valid email address" })
  .trim()
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

// The upper bound keeps argon2 from hashing megabytes; the spec sets no maximum.
export const strongPasswordField = z
  .string({ error: "Password is required" })
  .min(8, "Password must be at least 8 characters")
  .max(200, "Password cannot exceed 200 characters")
  .regex(/[A-Z]/, "Password must contain at least one uppercase letter")
  .regex(/[a-z]/, "Password must contain at least one lowercase letter")
  .regex(/[0-9]/, "Password must contain at least one number")
  .regex(/[^A-Za-z0-9]/, "Password must contain at least one special character");

export const planTypeField = z.enum(PLAN_TYPES);

/** The account fields of a registration (both steps of the Register tab, the free sign-up, the checkout start). */
export const registrationFieldsSchema = z.object({
  username: usernameField,
  name: nameField,
  email: emailField,
  password: strongPasswordField,
});
export type RegistrationFields = z.infer<typeof registrationFieldsSchema>;

/** A Stripe PaymentIntent id as the browser reports it. */
export const paymentIntentIdField = z
  .string({ error: "Early Access needs a completed payment: finish the checkout first." })
  .regex(/^pi_[A-Za-z0-9_]{1,200}$/, "This is not a payment reference.");

/**
 * Body of POST /api/register: a free account from the form, or (`planType: "earlyAccess"`) the end of a
 * paid checkout, which names its PaymentIntent; the account fields were saved on the server when the
 * checkout started. Unknown fields (role, hasPaid, confirmPassword...) are dropped.
 */
export const registerBodySchema = z.discriminatedUnion("planType", [
  registrationFieldsSchema.extend({ planType: z.literal("free").optional() }),
  z.object({ planType: z.literal("earlyAccess"), paymentIntentId: paymentIntentIdField }),
]);
export type RegisterBody = z.infer<typeof registerBodySchema>;
export type FreeRegisterBody = Extract<RegisterBody, { username: string }>;

/** Step 1 of the Register tab. */
export const registerStepOneSchema = registrationFieldsSchema
  .pick({ username: true, name: true, email: true, password: true })
  .extend({ confirmPassword: z.string() })
  .refine((data) => data.password === data.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });

/** The whole Register form (both steps). */
export const registerFormSchema = registrationFieldsSchema
  .extend({
    confirmPassword: z.string(),
    planType: planTypeField,
    acceptTerms: z.boolean().refine((v) => v === true, "You must accept the terms and conditions"),
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const loginBodySchema = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required").max(254, "Username is required"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200, "Password is required"),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

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

export const authApi = {
  register: endpoint({
    method: "POST",
    path: "/api/register",
    access: "public",
    body: registerBodySchema,
    response: publicUserSchema,
    status: 201,
  }),
  login: endpoint({ ...firstScreenCalls.login, body: loginBodySchema, response: publicUserSchema }),
  logout: endpoint({ ...firstScreenCalls.logout, response: z.object({ message: z.string() }) }),
};
