import { z } from "zod";
import { PLAN_TYPES } from "../constants.js";
import { endpoint } from "./endpoint.js";
import { emailText, optionalEmailText } from "./fields.js";

export const PLATFORM_NAME_MAX = 60;

/** POST /api/register while an admin has closed registration (403). */
export const REGISTRATION_CLOSED = "Registration is currently closed.";

/** A default model that no usable AI platform offers (400, under defaultModel). */
export const DEFAULT_MODEL_UNAVAILABLE = "Choose a model of an AI platform that is set up";

// The name goes into page titles and, later, e-mail subjects and headers: one line, no control characters.
const ONE_LINE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

/** An address in the settings that is not one: the support email, the SMTP sender, the SMTP test's recipient. The words are the settings screens'. */
export const SETTINGS_EMAIL_INVALID = "Enter a valid email";

const switchField = (label: string) => z.boolean({ error: `${label} must be on or off` });

/** The chat's tools (issue 34): how many tool steps one reply may take, and how long one tool call may run. */
export const TOOL_MAX_STEPS_LIMIT = 20;
export const TOOL_CALL_TIMEOUT_LIMIT_SECONDS = 300;
export const TOOL_MAX_STEPS_INVALID = `Tool steps must be a whole number from 1 to ${TOOL_MAX_STEPS_LIMIT}`;
export const TOOL_CALL_TIMEOUT_INVALID = `Tool call timeout must be a whole number of seconds from 1 to ${TOOL_CALL_TIMEOUT_LIMIT_SECONDS}`;
const wholeNumber = (max: number, message: string) => z.number({ error: message }).int(message).min(1, message).max(max, message);

/** The Platform Settings form and PATCH /api/admin/platform-settings. The words are the settings screens'. */
export const platformSettingsFormSchema = z.object({
  platformName: z
    .string({ error: "Platform name is required" })
    .trim()
    .min(1, "Platform name is required")
    .max(PLATFORM_NAME_MAX, `Platform name cannot exceed ${PLATFORM_NAME_MAX} characters`)
    .regex(ONE_LINE, "Platform name must be a single line of text"),
  /** "slug" (that platform's own default) or "slug/model" (see shared/model-choice.ts). */
  defaultModel: z
    .string({ error: "Default model is required" })
    .trim()
    .min(1, "Default model is required")
    .max(200, "Default model cannot exceed 200 characters")
    .regex(ONE_LINE, DEFAULT_MODEL_UNAVAILABLE),
  allowRegistration: switchField("Allow registration"),
  enableHistory: switchField("Chat history"),
  enableModelSelection: switchField("Model selection"),
  /** Shown on the contact page; contact messages go to it (to every admin when empty). */
  supportEmail: optionalEmailText(SETTINGS_EMAIL_INVALID)
    .transform((email) => email.toLowerCase() || null)
    .nullable()
    .optional(),
  toolMaxSteps: wholeNumber(TOOL_MAX_STEPS_LIMIT, TOOL_MAX_STEPS_INVALID),
  toolCallTimeoutSeconds: wholeNumber(TOOL_CALL_TIMEOUT_LIMIT_SECONDS, TOOL_CALL_TIMEOUT_INVALID),
  /** The plans whose users may make personal API tokens (issue 35); none: only admins. */
  apiTokenPlans: z
    .array(z.enum(PLAN_TYPES, { error: "Unknown plan" }))
    .max(PLAN_TYPES.length)
    .transform((plans) => [...new Set(plans)]),
});
export type PlatformSettingsForm = z.input<typeof platformSettingsFormSchema>;
/** The form's fields, in its order: what a save writes and where a refusal's field errors go. */
export const PLATFORM_SETTINGS_FIELDS = platformSettingsFormSchema.keyof().options;

export const SMTP_HOST_REQUIRED = "SMTP host is required";
export const SMTP_USER_REQUIRED = "SMTP username is required";
/** Only when no password is stored: a blank password keeps the stored one. */
export const SMTP_PASS_REQUIRED = "SMTP password is required";
/** A stored password goes only to the server it was saved for (decision 063). */
export const SMTP_PASS_AGAIN = "Enter the SMTP password again: the server, port or username changed.";
export const SMTP_PORT_INVALID = "Port must be a number from 1 to 65535";
export const SMTP_PORT_DEFAULT = "587";

const HOSTNAME = /^[A-Za-z0-9._:[\]-]+$/;

/** The SMTP fields as the SMTP form and the SMTP test send them. The words are the settings screens'. */
export const smtpFields = {
  smtpHost: z
    .string({ error: SMTP_HOST_REQUIRED })
    .trim()
    .min(1, SMTP_HOST_REQUIRED)
    .max(253, "SMTP host cannot exceed 253 characters")
    .regex(HOSTNAME, "Enter a host name or IP address, such as smtp.example.com"),
  /** Text, as the settings form sends it ("587"). */
  smtpPort: z
    .string({ error: SMTP_PORT_INVALID })
    .trim()
    .regex(/^\d{1,5}$/, SMTP_PORT_INVALID)
    .refine((port) => Number(port) >= 1 && Number(port) <= 65535, SMTP_PORT_INVALID),
  smtpSecure: switchField("Secure connection"),
  smtpUser: z
    .string({ error: SMTP_USER_REQUIRED })
    .trim()
    .min(1, SMTP_USER_REQUIRED)
    .max(254, "SMTP username cannot exceed 254 characters")
    .regex(ONE_LINE, "SMTP username must be a single line of text"),
  /** Blank keeps the stored password (the service refuses blank when none is stored). */
  smtpPass: z
    .string({ error: SMTP_PASS_REQUIRED })
    .max(1000, "SMTP password cannot exceed 1000 characters")
    .regex(ONE_LINE, "SMTP password must be a single line of text"),
  smtpFromEmail: emailText(SETTINGS_EMAIL_INVALID),
  smtpFromName: z
    .string({ error: "From name must be text" })
    .trim()
    .max(100, "From name cannot exceed 100 characters")
    .regex(ONE_LINE, "From name must be a single line of text"),
};

/** The SMTP form's fields (and the SMTP test's): defaults for what may be left out. */
export const smtpFieldsSchema = z.object({
  smtpHost: smtpFields.smtpHost,
  smtpPort: smtpFields.smtpPort.default(SMTP_PORT_DEFAULT),
  smtpSecure: smtpFields.smtpSecure.default(false),
  smtpUser: smtpFields.smtpUser,
  smtpPass: smtpFields.smtpPass.default(""),
  smtpFromEmail: smtpFields.smtpFromEmail,
  smtpFromName: smtpFields.smtpFromName.nullable().default(""),
});

/**
 * PATCH: only the fields sent change (none of them has a default, so nothing is reset). Once any SMTP
 * field is sent, the saved SMTP settings must be complete: host, username, a password (sent or stored)
 * and a from email; the service checks what was not sent against what is stored.
 */
export const updatePlatformSettingsBodySchema = platformSettingsFormSchema.partial().extend({
  smtpHost: smtpFields.smtpHost.optional(),
  smtpPort: smtpFields.smtpPort.optional(),
  smtpSecure: smtpFields.smtpSecure.optional(),
  smtpUser: smtpFields.smtpUser.optional(),
  smtpPass: smtpFields.smtpPass.optional(),
  smtpFromEmail: smtpFields.smtpFromEmail.optional(),
  smtpFromName: smtpFields.smtpFromName.nullable().optional(),
});
export type UpdatePlatformSettingsBody = z.input<typeof updatePlatformSettingsBodySchema>;
export type PlatformSettingsPatch = z.output<typeof updatePlatformSettingsBodySchema>;

/**
 * What an admin reads: every setting, the SMTP ones too, but of the SMTP password only whether one is
 * stored (`smtpPassSet`), never the password nor its ciphertext. `updatedAt` is null until the first save.
 */
export const adminPlatformSettingsSchema = z.object({
  platformName: z.string(),
  /** The default model in force: the saved one, or the one chats use while no usable platform offers it (decision 061). */
  defaultModel: z.string(),
  /** True while no choice of the admin's is in force: the default follows the AI platforms set up. */
  defaultModelFollows: z.boolean(),
  allowRegistration: z.boolean(),
  enableHistory: z.boolean(),
  enableModelSelection: z.boolean(),
  smtpHost: z.string().nullable(),
  smtpPort: z.string(),
  smtpSecure: z.boolean(),
  smtpUser: z.string().nullable(),
  smtpPassSet: z.boolean(),
  smtpFromEmail: z.string().nullable(),
  smtpFromName: z.string().nullable(),
  supportEmail: z.string().nullable(),
  toolMaxSteps: z.number().int(),
  toolCallTimeoutSeconds: z.number().int(),
  apiTokenPlans: z.array(z.enum(PLAN_TYPES)),
  updatedAt: z.string().nullable(),
});
export type AdminPlatformSettings = z.infer<typeof adminPlatformSettingsSchema>;

/** Platform Settings (admin). The public read is `publicContentApi.platformSettings`. */
export const platformSettingsApi = {
  get: endpoint({ method: "GET", path: "/api/admin/platform-settings", access: "admin", response: adminPlatformSettingsSchema }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/platform-settings",
    access: "admin",
    body: updatePlatformSettingsBodySchema,
    response: adminPlatformSettingsSchema,
  }),
};
