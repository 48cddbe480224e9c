import { z } from "zod";
import { endpoint } from "./endpoint.js";

/** Spec 002 section 9: what holds before an admin saves anything (no settings row yet). */
export const PLATFORM_SETTINGS_DEFAULTS = {
  platformName: "Lumora",
  defaultModel: "openai-gpt4",
  allowRegistration: true,
  enableHistory: true,
  enableModelSelection: true,
} as const;

export const PLATFORM_NAME_MAX = 60;

/** POST /api/register while an admin has closed registration (403). */
export const REGISTRATION_CLOSED = "Registration is currently closed.";

/** A default model that no usable AI platform offers (400, under defaultModel). */
export const DEFAULT_MODEL_UNAVAILABLE = "Choose a model of an AI platform that is set up";

// The name goes into page titles and, later, e-mail subjects and headers: one line, no control characters.
const ONE_LINE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

const switchField = (label: string) => z.boolean({ error: `${label} must be on or off` });

/** The Platform Settings form and PATCH /api/admin/platform-settings (spec 002 section 5). */
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
});
export type PlatformSettingsForm = z.input<typeof platformSettingsFormSchema>;

/** PATCH: only the fields sent change (none of them has a default, so `.partial()` resets nothing). */
export const updatePlatformSettingsBodySchema = platformSettingsFormSchema.partial();
export type UpdatePlatformSettingsBody = z.input<typeof updatePlatformSettingsBodySchema>;
export type PlatformSettingsPatch = z.output<typeof updatePlatformSettingsBodySchema>;

/**
 * What an admin reads: every setting, the SMTP ones too, but of the SMTP password only whether one is
 * stored (`smtpPassSet`), never the password nor its ciphertext. `updatedAt` is null until the first save.
 */
export const adminPlatformSettingsSchema = z.object({
  platformName: z.string(),
  defaultModel: z.string(),
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
  updatedAt: z.string().nullable(),
});
export type AdminPlatformSettings = z.infer<typeof adminPlatformSettingsSchema>;

/** Platform Settings (admin). The public read is `publicContentApi.platformSettings`. */
export const platformSettingsApi = {
  get: endpoint({ method: "GET", path: "/api/admin/platform-settings", response: adminPlatformSettingsSchema }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/platform-settings",
    body: updatePlatformSettingsBodySchema,
    response: adminPlatformSettingsSchema,
  }),
};
