import { z } from "zod";
import { PLAN_TYPES, ROLES } from "../constants.js";
import { endpoint } from "./endpoint.js";
import { confirmed, confirmPasswordField, emailField, nameField, strongPasswordField, usernameField } from "./fields.js";
import { firstScreenCalls } from "./first-screen-reads.js";

export const planTypeField = z.enum(PLAN_TYPES);

export const acceptTermsField = z.boolean().refine((v) => v === true, "You must accept the terms and conditions");

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
export const registerStepOneSchema = confirmed(registrationFieldsSchema.extend({ confirmPassword: confirmPasswordField }));

/** The whole Register form (both steps). */
export const registerFormSchema = confirmed(
  registrationFieldsSchema.extend({
    confirmPassword: confirmPasswordField,
    planType: planTypeField,
    acceptTerms: acceptTermsField,
  }),
);
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
