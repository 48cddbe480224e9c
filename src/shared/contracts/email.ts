import { z } from "zod";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { emailText, optionalEmailText } from "./fields.js";
import { SETTINGS_EMAIL_INVALID, SMTP_PASS_REQUIRED, smtpFieldsSchema } from "./platform-settings.js";

/** The emails the product sends: their templates can be edited, never deleted, and keep their slug. */
export const PRODUCT_TEMPLATE_SLUGS = ["welcome", "password-changed", "password-reset", "early-access-receipt"] as const;
export const isProductTemplate = (slug: string) => (PRODUCT_TEMPLATE_SLUGS as readonly string[]).includes(slug);

export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATE_SLUG_MAX = 100;
export const TEMPLATE_SUBJECT_MAX = 300;
export const TEMPLATE_DESCRIPTION_MAX = 500;
export const TEMPLATE_TEXT_MAX = 100_000;
export const TEMPLATE_HTML_MAX = 200_000;

/** 409 on create or update: slugs are unique. */
export const TEMPLATE_SLUG_TAKEN = "A template with this slug already exists";
/** 409: a product email's template stays (DELETE) and keeps its slug (PATCH). */
export const productTemplateNotDeletable = (name: string) =>
  `The "${name}" template is sent by the product and cannot be deleted. You can edit it instead.`;
export const PRODUCT_TEMPLATE_SLUG_FIXED = "This template is sent by the product: its slug cannot be changed";

export const TEST_DATA_INVALID_JSON = "Invalid JSON in test data. Please check the format.";
export const TEST_DATA_NOT_OBJECT = "Test data must be a JSON object";
export const RECIPIENT_INVALID = "Enter a valid email address";

/** Required content: blank (spaces only) is empty; the text itself is kept as written. */
const content = (message: string, max: number, label: string) =>
  z
    .string({ error: message })
    .max(max, `${label} cannot exceed ${max.toLocaleString("en-US")} characters`)
    .refine((s) => s.trim().length > 0, message);

/** The template form and POST /api/admin/email-templates. The words are the settings screens'. */
export const emailTemplateBodySchema = z.object({
  name: z
    .string({ error: "Template name is required" })
    .trim()
    .min(1, "Template name is required")
    .max(TEMPLATE_NAME_MAX, `Template name cannot exceed ${TEMPLATE_NAME_MAX} characters`),
  slug: z
    .string({ error: "Template slug is required" })
    .trim()
    .min(1, "Template slug is required")
    .max(TEMPLATE_SLUG_MAX, `Template slug cannot exceed ${TEMPLATE_SLUG_MAX} characters`)
    .regex(/^[a-z0-9-]+$/, "Slug must be lowercase letters, numbers, and hyphens only"),
  subject: z
    .string({ error: "Email subject is required" })
    .trim()
    .min(1, "Email subject is required")
    .max(TEMPLATE_SUBJECT_MAX, `Email subject cannot exceed ${TEMPLATE_SUBJECT_MAX} characters`),
  description: z
    .string({ error: "Description must be text" })
    .trim()
    .max(TEMPLATE_DESCRIPTION_MAX, `Description cannot exceed ${TEMPLATE_DESCRIPTION_MAX} characters`)
    .nullable()
    .optional(),
  textContent: content("Plain text content is required", TEMPLATE_TEXT_MAX, "Plain text content"),
  htmlContent: content("HTML content is required", TEMPLATE_HTML_MAX, "HTML content"),
});
export type EmailTemplateBody = z.input<typeof emailTemplateBodySchema>;
export type EmailTemplateInput = z.output<typeof emailTemplateBodySchema>;

/** PATCH: the same fields, each optional (what is sent follows the same rules; none has a default). */
export const updateEmailTemplateBodySchema = emailTemplateBodySchema.partial();
export type UpdateEmailTemplateBody = z.input<typeof updateEmailTemplateBodySchema>;
export type EmailTemplatePatch = z.output<typeof updateEmailTemplateBodySchema>;

export const emailTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  subject: z.string(),
  description: z.string().nullable(),
  textContent: z.string(),
  htmlContent: z.string(),
  /** Sent by the product (welcome, password reset...): cannot be deleted, keeps its slug. */
  isProductEmail: z.boolean(),
  /** The `{{variables}}` it uses (subject, text and HTML), for the hint and the test data. */
  variables: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

const recipientField = emailText(RECIPIENT_INVALID);

/** POST /api/admin/email-templates/:id/test: `testData` is a JSON object of the template's variables. */
export const templateTestBodySchema = z.object({
  recipientEmail: recipientField,
  testData: z
    .record(z.string().max(64), z.unknown(), { error: TEST_DATA_NOT_OBJECT })
    .refine((data) => Object.keys(data).length <= 100, "Test data cannot have more than 100 variables")
    .default({}),
});
export type TemplateTestBody = z.input<typeof templateTestBodySchema>;
export type TemplateTestInput = z.output<typeof templateTestBodySchema>;

/** The Test Email dialog: the test data is typed as JSON text and must parse to an object. */
export const templateTestFormSchema = z.object({
  recipientEmail: recipientField,
  testData: z.string().superRefine((text, ctx) => {
    if (!text.trim()) return;
    try {
      const value: unknown = JSON.parse(text);
      if (!value || typeof value !== "object" || Array.isArray(value)) ctx.addIssue({ code: "custom", message: TEST_DATA_NOT_OBJECT });
    } catch {
      ctx.addIssue({ code: "custom", message: TEST_DATA_INVALID_JSON });
    }
  }),
});
export type TemplateTestForm = z.input<typeof templateTestFormSchema>;

export const templateTestResultSchema = z.object({
  message: z.string(),
  /** True when no SMTP server is configured: the email stays in the outbox as a test, never sent. */
  isTestAccount: z.boolean(),
  /** The admin page showing the stored email (`/admin/email-preview/{outboxId}`). */
  previewUrl: z.string(),
});
export type TemplateTestResult = z.infer<typeof templateTestResultSchema>;

/** POST /api/admin/smtp-test: the SMTP form as typed (a blank password means the stored one) and an optional recipient. */
export const smtpTestBodySchema = smtpFieldsSchema.extend({
  testRecipient: optionalEmailText(SETTINGS_EMAIL_INVALID).optional(),
});
export type SmtpTestBody = z.input<typeof smtpTestBodySchema>;
export type SmtpTestInput = z.output<typeof smtpTestBodySchema>;

export const smtpTestResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Whether a test message was sent to `testRecipient` (and accepted by the server). */
  sent: z.boolean(),
});
export type SmtpTestResult = z.infer<typeof smtpTestResultSchema>;

/** Email (admin): templates, their test sends, and the SMTP connection test (docs/product.md, Admin back office). */
export const emailApi = {
  listTemplates: endpoint({ method: "GET", path: "/api/admin/email-templates", access: "admin", response: z.array(emailTemplateSchema) }),
  createTemplate: endpoint({
    method: "POST",
    path: "/api/admin/email-templates",
    access: "admin",
    body: emailTemplateBodySchema,
    response: emailTemplateSchema,
    status: 201,
  }),
  updateTemplate: endpoint({
    method: "PATCH",
    path: "/api/admin/email-templates/:id",
    access: "admin",
    params: idParamsSchema,
    body: updateEmailTemplateBodySchema,
    response: emailTemplateSchema,
  }),
  removeTemplate: endpoint({
    method: "DELETE",
    path: "/api/admin/email-templates/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
  testTemplate: endpoint({
    method: "POST",
    path: "/api/admin/email-templates/:id/test",
    access: "admin",
    params: idParamsSchema,
    body: templateTestBodySchema,
    response: templateTestResultSchema,
  }),
  smtpTest: endpoint({
    method: "POST",
    path: "/api/admin/smtp-test",
    access: "admin",
    body: smtpTestBodySchema,
    response: smtpTestResultSchema,
  }),
};

/**
 * The SMTP Configuration form: the SMTP fields and the test recipient. The password is required only
 * while none is stored (blank keeps the stored one), as the server checks on save and on test.
 */
export const smtpFormSchema = (passwordStored: boolean) =>
  smtpTestBodySchema.superRefine((value, ctx) => {
    if (!passwordStored && !value.smtpPass) ctx.addIssue({ code: "custom", path: ["smtpPass"], message: SMTP_PASS_REQUIRED });
  });
export type SmtpForm = z.input<ReturnType<typeof smtpFormSchema>>;
