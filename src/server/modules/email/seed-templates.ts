import type { Db } from "../../db/client.js";
import { emailTemplates } from "../../db/schema/index.js";
import { PRODUCT_EMAILS } from "./product-email-slugs.js";

type SeedTemplate = typeof emailTemplates.$inferInsert;

const layout = (body: string) =>
  `<div style="font-family: -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.6; color: #1f2937; max-width: 560px; margin: 0 auto; padding: 24px;">
${body}
<p style="margin-top: 32px; font-size: 13px; color: #6b7280;">The {{platformName}} team</p>
</div>`;

const button = (href: string, label: string) =>
  `<p style="margin: 24px 0;"><a href="${href}" style="display: inline-block; background: #4f46e5; color: #ffffff; text-decoration: none; padding: 10px 18px; border-radius: 6px; font-weight: 600;">${label}</a></p>`;

/** The emails the product sends (issue 11). Seeded once; admins edit them on the Email Settings page. */
export const SEEDED_TEMPLATES: SeedTemplate[] = [
  {
    slug: PRODUCT_EMAILS.welcome,
    name: "Welcome",
    description: "Sent after registration. Variables: name, username, loginUrl.",
    subject: "Welcome to {{platformName}}, {{name}}!",
    textContent: `Hi {{name}},

Welcome to {{platformName}}! Your account is ready.

Your username: {{username}}
Sign in here: {{loginUrl}}

Create your first course, chat with the AI models, and make it yours.

The {{platformName}} team`,
    htmlContent: layout(`<h1 style="font-size: 22px; margin: 0 0 16px;">Welcome to {{platformName}}!</h1>
<p>Hi {{name}},</p>
<p>Your account is ready. Your username is <strong>{{username}}</strong>.</p>
${button("{{loginUrl}}", "Sign in")}
<p>Create your first course, chat with the AI models, and make it yours.</p>`),
  },
  {
    slug: PRODUCT_EMAILS.passwordChanged,
    name: "Password changed",
    description: "Sent after a password change. Variables: name.",
    subject: "Your {{platformName}} password was changed",
    textContent: `Hi {{name}},

The password of your {{platformName}} account was just changed.

If you did this, there is nothing else to do. If you did not, reset your password right away and contact us.

The {{platformName}} team`,
    htmlContent: layout(`<h1 style="font-size: 22px; margin: 0 0 16px;">Your password was changed</h1>
<p>Hi {{name}},</p>
<p>The password of your {{platformName}} account was just changed.</p>
<p>If you did this, there is nothing else to do. If you did not, reset your password right away and contact us.</p>`),
  },
  {
    slug: PRODUCT_EMAILS.passwordReset,
    name: "Password reset",
    description: "Sent when someone asks to reset a forgotten password. Variables: name, resetUrl (valid for one hour).",
    subject: "Reset your {{platformName}} password",
    textContent: `Hi {{name}},

Someone (hopefully you) asked to reset the password of your {{platformName}} account.

Choose a new password here (the link works once, for one hour):
{{resetUrl}}

If you did not ask for this, ignore this email: your password stays the same.

The {{platformName}} team`,
    htmlContent: layout(`<h1 style="font-size: 22px; margin: 0 0 16px;">Reset your password</h1>
<p>Hi {{name}},</p>
<p>Someone (hopefully you) asked to reset the password of your {{platformName}} account.</p>
${button("{{resetUrl}}", "Choose a new password")}
<p style="font-size: 13px; color: #6b7280;">The link works once, for one hour. If the button does not work, copy this address into your browser:<br>{{resetUrl}}</p>
<p>If you did not ask for this, ignore this email: your password stays the same.</p>`),
  },
  {
    slug: PRODUCT_EMAILS.earlyAccessReceipt,
    name: "Early Access receipt",
    description: "Sent after an Early Access payment. Variables: name, amount, currency.",
    subject: "Your {{platformName}} Early Access receipt",
    textContent: `Hi {{name}},

Thank you for joining {{platformName}} Early Access!

Amount paid: {{amount}} {{currency}} (one-time payment)

Your account now has every Early Access feature. Early Access payments are final.

The {{platformName}} team`,
    htmlContent: layout(`<h1 style="font-size: 22px; margin: 0 0 16px;">Thank you for joining Early Access!</h1>
<p>Hi {{name}},</p>
<p>Your payment was received.</p>
<table style="border-collapse: collapse; margin: 16px 0;">
<tr><td style="padding: 4px 16px 4px 0; color: #6b7280;">Amount paid</td><td style="padding: 4px 0;"><strong>{{amount}} {{currency}}</strong> (one-time payment)</td></tr>
</table>
<p>Your account now has every Early Access feature. Early Access payments are final.</p>`),
  },
];

/** Inserts the product templates that are missing; an edited (or existing) template is never touched. */
export async function seedEmailTemplates(db: Db): Promise<void> {
  await db.insert(emailTemplates).values(SEEDED_TEMPLATES).onConflictDoNothing({ target: emailTemplates.slug });
}
