import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { emailOutbox, emailTemplates } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { wakeOutboxWorkers } from "./outbox-worker.js";
import { renderHtml, renderSubject, renderText, type TemplateData } from "./render.js";

export interface QueuedEmail {
  id: number;
}

/**
 * Renders a template (with `platformName` always available) and stores the email in the outbox. Nothing is
 * sent here: the outbox worker sends it (with retries), so a caller never waits on SMTP and a crash loses
 * nothing. Call it inside the caller's transaction (`db` may be a transaction) when the email must go only
 * if the change commits.
 */
export async function queueEmail(options: { db: Db; to: string; template: string; data: TemplateData }): Promise<QueuedEmail> {
  const { db } = options;
  const [template] = await db.select().from(emailTemplates).where(eq(emailTemplates.slug, options.template)).limit(1);
  if (!template) throw new AppError("NOT_FOUND", `Email template "${options.template}" not found`);
  const settings = await readPlatformSettings(db);
  const data: TemplateData = { ...options.data, platformName: settings.platformName };
  return queueRendered({
    db,
    to: options.to,
    templateSlug: template.slug,
    subject: renderSubject(template.subject, data),
    text: renderText(template.textContent, data),
    html: renderHtml(template.htmlContent, data),
  });
}

/** An already-rendered email (a template test, the SMTP test message). */
export async function queueRendered(options: {
  db: Db;
  to: string;
  templateSlug: string | null;
  subject: string;
  text: string;
  html: string;
}): Promise<QueuedEmail> {
  const [row] = await options.db
    .insert(emailOutbox)
    .values({
      toAddress: options.to,
      templateSlug: options.templateSlug,
      subject: options.subject,
      textBody: options.text,
      htmlBody: options.html,
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error("insert returned no row");
  // The worker of this instance looks at once (inside a transaction it finds the row at its next tick).
  wakeOutboxWorkers();
  return row;
}
