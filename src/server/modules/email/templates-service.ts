import { asc, eq } from "drizzle-orm";
import {
  type EmailTemplate,
  type EmailTemplateInput,
  type EmailTemplatePatch,
  isProductTemplate,
  PRODUCT_TEMPLATE_SLUG_FIXED,
  productTemplateNotDeletable,
  TEMPLATE_SLUG_TAKEN,
  type TemplateTestInput,
  type TemplateTestResult,
} from "../../../shared/contracts/email.js";
import { emailPreviewPath } from "../../../shared/email-preview-path.js";
import type { Db } from "../../db/client.js";
import { emailTemplates } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/db-errors.js";
import type { Who } from "../../lib/who.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { queueRendered } from "./queue.js";
import { placeholdersOf, renderHtml, renderSubject, renderText, type TemplateData } from "./render.js";
import { smtpConfigured } from "./transport.js";

const NOT_FOUND = "Email template not found";

type TemplateRow = typeof emailTemplates.$inferSelect;

function toTemplate(row: TemplateRow): EmailTemplate {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    subject: row.subject,
    description: row.description,
    textContent: row.textContent,
    htmlContent: row.htmlContent,
    isProductEmail: isProductTemplate(row.slug),
    variables: placeholdersOf(row.subject, row.textContent, row.htmlContent),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const slugTaken = () => new AppError("CONFLICT", TEMPLATE_SLUG_TAKEN, { errors: { slug: TEMPLATE_SLUG_TAKEN } });

async function findTemplate(db: Db, id: number): Promise<TemplateRow> {
  const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.id, id)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
}

/** Every template, by name. Admin-written and few, so one list. */
export async function listTemplates(options: { db: Db; who: Who }): Promise<EmailTemplate[]> {
  const rows = await options.db.select().from(emailTemplates).orderBy(asc(emailTemplates.name), asc(emailTemplates.id));
  return rows.map(toTemplate);
}

export async function createTemplate(options: { db: Db; who: Who; input: EmailTemplateInput }): Promise<EmailTemplate> {
  const { input } = options;
  // The unique slug decides, in the insert itself (no separate lookup that a racing create could pass).
  const [row] = await options.db
    .insert(emailTemplates)
    .values({
      name: input.name,
      slug: input.slug,
      subject: input.subject,
      description: input.description || null,
      textContent: input.textContent,
      htmlContent: input.htmlContent,
    })
    .onConflictDoNothing({ target: emailTemplates.slug })
    .returning();
  if (!row) throw slugTaken();
  return toTemplate(row);
}

/** PATCH: the fields sent change. A product email keeps its slug, since the product finds it by slug. */
export async function updateTemplate(options: { db: Db; who: Who; id: number; input: EmailTemplatePatch }): Promise<EmailTemplate> {
  const { db, id, input } = options;
  const current = await findTemplate(db, id);
  if (input.slug !== undefined && input.slug !== current.slug && isProductTemplate(current.slug)) {
    throw new AppError("CONFLICT", PRODUCT_TEMPLATE_SLUG_FIXED, { errors: { slug: PRODUCT_TEMPLATE_SLUG_FIXED } });
  }
  const change: Partial<typeof emailTemplates.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) change.name = input.name;
  if (input.slug !== undefined) change.slug = input.slug;
  if (input.subject !== undefined) change.subject = input.subject;
  if (input.description !== undefined) change.description = input.description || null;
  if (input.textContent !== undefined) change.textContent = input.textContent;
  if (input.htmlContent !== undefined) change.htmlContent = input.htmlContent;
  const [row] = await db
    .update(emailTemplates)
    .set(change)
    .where(eq(emailTemplates.id, id))
    .returning()
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? slugTaken() : error;
    });
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toTemplate(row);
}

/** DELETE: never a product email's template (409), so the product always finds what it sends. */
export async function deleteTemplate(options: { db: Db; who: Who; id: number }): Promise<void> {
  const current = await findTemplate(options.db, options.id);
  if (isProductTemplate(current.slug)) throw new AppError("CONFLICT", productTemplateNotDeletable(current.name));
  await options.db.delete(emailTemplates).where(eq(emailTemplates.id, options.id));
}

/**
 * POST /api/admin/email-templates/:id/test: renders the template with the admin's test data (and the
 * platform name) and stores it in the outbox, so it goes out as every email does (or stays in the test
 * inbox while SMTP is not configured). Values are escaped in the HTML part by the engine.
 */
export async function sendTemplateTest(options: { db: Db; who: Who; id: number; input: TemplateTestInput }): Promise<TemplateTestResult> {
  const { db, input } = options;
  const template = await findTemplate(db, options.id);
  const settings = await readPlatformSettings(db);
  const data: TemplateData = { ...input.testData, platformName: settings.platformName };
  const queued = await queueRendered({
    db,
    to: input.recipientEmail,
    templateSlug: template.slug,
    subject: renderSubject(template.subject, data),
    text: renderText(template.textContent, data),
    html: renderHtml(template.htmlContent, data),
  });
  const isTestAccount = !smtpConfigured(settings);
  return {
    isTestAccount,
    previewUrl: emailPreviewPath(queued.id),
    message: isTestAccount
      ? `SMTP is not configured, so the test email to ${input.recipientEmail} was kept in the test inbox. Open the preview to see it.`
      : `The test email to ${input.recipientEmail} is queued for your SMTP server. The Outbox tab shows when it is delivered, or why not.`,
  };
}
