import { z } from "zod";

/**
 * The fields several contracts share, each written once with the product's messages (docs/product.md, Validation
 * messages), for the forms and the server alike. What a field changes (trimmed, an email lower-cased) is what the
 * form submits and the server receives; the form's box still shows what was typed.
 */

/** Text that must be there: trimmed, "<label> is required" when empty (or not text), at most `max` characters. */
export function requiredText(label: string, max: number) {
  const required = `${label} is required`;
  return z.string({ error: required }).trim().min(1, required).max(max, `${label} cannot exceed ${max} characters`);
}

// ---------------------------------------------------------------------------------------------------------
// Titles

export const TITLE_MAX = 200;
export const TITLE_TOO_SHORT = "Title must be at least 3 characters";
const TITLE_TOO_LONG = `Title cannot exceed ${TITLE_MAX} characters`;

/** A title (a chat, a module, a lesson, a course edited, an outline's modules and lessons): 1 to 200 characters. */
export const titleField = requiredText("Title", TITLE_MAX);

/** A title of 3 characters at least (a new course, a Getting Started video); "too short" also when not text. */
export const longTitleField = z.string({ error: TITLE_TOO_SHORT }).trim().min(3, TITLE_TOO_SHORT).max(TITLE_MAX, TITLE_TOO_LONG);

/** The title an AI writer starts from: `missing` when there is none. */
export const promptTitleField = (missing: string) => z.string({ error: missing }).trim().min(1, missing).max(TITLE_MAX, TITLE_TOO_LONG);

// ---------------------------------------------------------------------------------------------------------
// Account: username, name, email

export const USERNAME_TAKEN = "Username already exists";
export const EMAIL_TAKEN = "An account with this email already exists";

export const usernameField = z
  .string({ error: "Username is required" })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(50, "Username cannot exceed 50 characters");

export const NAME_MAX = 100;
const NAME_TOO_SHORT = "Name must be at least 2 characters";
const NAME_TOO_LONG = `Name cannot exceed ${NAME_MAX} characters`;

/** A person's name (registration, the checkout, the create-admin script): 2 to 100 characters. */
export const nameField = z.string({ error: "Name is required" }).trim().min(2, NAME_TOO_SHORT).max(NAME_MAX, NAME_TOO_LONG);

/** A person's name that may be left empty ("" is no name): at most 100 characters (the admin's user form). */
export const optionalNameText = z.string({ error: "Name must be text" }).trim().max(NAME_MAX, NAME_TOO_LONG);

/** The profile's name: empty, or the registration's 2 characters at least. */
export const optionalNameField = optionalNameText.refine((name) => name === "" || name.length >= 2, NAME_TOO_SHORT);

export const EMAIL_MAX = 254;
export const EMAIL_INVALID = "Please enter a valid email address";

/**
 * An account's email (registration, the checkout, a reset request, the contact form): trimmed and lower-cased,
 * so it is stored lower-case and found whatever case it was typed in (decision 004).
 */
export const emailField = z
  .string({ error: EMAIL_INVALID })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, EMAIL_INVALID)
  .pipe(z.email(EMAIL_INVALID));

/**
 * An address a setting or a test send names (the SMTP sender, a test email's recipient): trimmed, kept as typed (it is
 * no account's, so never lower-cased), at most EMAIL_MAX characters; `invalid` (the form's own words) when it is not one.
 */
export const emailText = (invalid: string) => z.string({ error: invalid }).trim().max(EMAIL_MAX, invalid).pipe(z.email(invalid));

/** The same, or "" for none (the support email, the SMTP test's recipient). */
export const optionalEmailText = (invalid: string) =>
  z
    .string({ error: invalid })
    .trim()
    .max(EMAIL_MAX, invalid)
    .pipe(z.union([z.literal(""), z.email(invalid)]));

/** An account's email that may be left empty ("" is no email): the profile and the admin's user form. */
export const optionalEmailField = (invalid: string) =>
  z
    .string({ error: invalid })
    .trim()
    .toLowerCase()
    .refine((email) => email === "" || emailField.safeParse(email).success, invalid);

// ---------------------------------------------------------------------------------------------------------
// Passwords

// The upper bound keeps argon2 from hashing megabytes; the product sets no maximum (decision 004).
export const PASSWORD_MAX = 200;
export const PASSWORD_TOO_LONG = `Password cannot exceed ${PASSWORD_MAX} characters`;

/**
 * The one password rule (decision 030): every way of setting a password (registration, the checkout, a reset,
 * a change, the admin's user form, the create-admin script) demands the registration's 8 characters and four
 * kinds (docs/product.md, Validation messages), with the product's words.
 */
export const strongPasswordField = z
  .string({ error: "Password is required" })
  .min(8, "Password must be at least 8 characters")
  .max(PASSWORD_MAX, PASSWORD_TOO_LONG)
  .regex(/[A-Z]/, "Password must contain at least one uppercase letter")
  .regex(/[a-z]/, "Password must contain at least one lowercase letter")
  .regex(/[0-9]/, "Password must contain at least one number")
  .regex(/[^A-Za-z0-9]/, "Password must contain at least one special character");

/** Said in the forms that ask for 6 (the password change, the admin's user form) under 6 characters. */
export const SHORT_PASSWORD_MIN = 6;
export const SHORT_PASSWORD_TOO_SHORT = `Password must be at least ${SHORT_PASSWORD_MIN} characters`;

/**
 * The new password of a change and of the admin's user form: the same rule, and the product's "at least 6
 * characters" for fewer than 6 (then the registration's words from 6 on).
 */
export const newPasswordField = z
  .string({ error: SHORT_PASSWORD_TOO_SHORT })
  .min(SHORT_PASSWORD_MIN, SHORT_PASSWORD_TOO_SHORT)
  .pipe(strongPasswordField);

/** The admin's Edit User form: blank keeps the current password, anything else follows `newPasswordField`. */
export const optionalNewPasswordField = z.string({ error: SHORT_PASSWORD_TOO_SHORT }).superRefine((value, ctx) => {
  if (value === "") return;
  const verdict = newPasswordField.safeParse(value);
  const issue = verdict.success ? undefined : verdict.error.issues[0];
  if (issue) ctx.addIssue({ code: "custom", message: issue.message });
});

export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";
/** The password change's words (docs/product.md, Validation messages). */
export const PASSWORDS_DONT_MATCH = "Passwords don't match";
export const CONFIRM_PASSWORD = "Please confirm your password";

/** The "Confirm password" box of registration, the checkout and a reset: what it must be is said by `confirmed`. */
export const confirmPasswordField = z.string({ error: CONFIRM_PASSWORD }).max(PASSWORD_MAX, PASSWORDS_DO_NOT_MATCH);

/**
 * The confirmation must equal the password (`password`, or the field named): else `message` ("Passwords do not
 * match" unless told) under `confirmPassword`.
 */
export function confirmed<Schema extends z.ZodType<Record<Key | "confirmPassword", string>>, Key extends string = "password">(
  schema: Schema,
  options: { password?: Key; message?: string } = {},
): Schema {
  const field = options.password ?? ("password" as Key);
  return schema.refine((data) => data[field] === data.confirmPassword, {
    message: options.message ?? PASSWORDS_DO_NOT_MATCH,
    path: ["confirmPassword"],
  });
}

// ---------------------------------------------------------------------------------------------------------
// Course generation hints

export const COURSE_LEVELS = ["beginner", "intermediate", "advanced", "all-levels"] as const;

/** Course Training hints (sent with each AI request). */
export const trainingHintsSchema = z.object({
  audience: z.string().trim().max(500).default(""),
  level: z.enum(COURSE_LEVELS).default("all-levels"),
  goals: z.string().trim().max(2000).default(""),
  notes: z.string().trim().max(2000).default(""),
});
export type TrainingHints = z.input<typeof trainingHintsSchema>;
export type Hints = z.output<typeof trainingHintsSchema>;

/** No hints given: what a call without `hints` uses, and what the editor starts from. */
export const NO_HINTS: Readonly<Hints> = { audience: "", level: "all-levels", goals: "", notes: "" };

/** The hints of an AI course call (a description, an outline, its approval, a lesson body): none sent is none given. */
export const hintsField = trainingHintsSchema.default(() => ({ ...NO_HINTS }));
