import { and, eq, isNotNull } from "drizzle-orm";
import { NO_SECRET_KEYS, STRIPE_KEY_NAMES, type StripeKeyName } from "../../../shared/contracts/payments.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { queueRendered } from "../email/queue.js";
import { escapeHtml } from "../email/render.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import type { StripeGateway } from "./gateway.js";

const isKeyName = (name: string): name is StripeKeyName => (STRIPE_KEY_NAMES as readonly string[]).includes(name);

/** POST /api/check-secrets: each name asked for → whether that key is set (environment or stored). Unknown names are false. */
export async function checkSecrets(options: { gateway: StripeGateway; names: string[] }): Promise<Record<string, boolean>> {
  const keys = await options.gateway.keys();
  const present: Record<StripeKeyName, boolean> = {
    STRIPE_SECRET_KEY: keys.secretKey !== null,
    VITE_STRIPE_PUBLIC_KEY: keys.publishableKey !== null,
    STRIPE_WEBHOOK_SECRET: keys.webhookSecret !== null,
  };
  return Object.fromEntries(options.names.map((name) => [name, isKeyName(name) ? present[name] : false]));
}

const WHERE: Record<StripeKeyName, string> = {
  STRIPE_SECRET_KEY: "the secret key (starts with sk_): Stripe Dashboard > Developers > API keys, https://dashboard.stripe.com/apikeys",
  VITE_STRIPE_PUBLIC_KEY:
    "the publishable key (starts with pk_): Stripe Dashboard > Developers > API keys, https://dashboard.stripe.com/apikeys",
  STRIPE_WEBHOOK_SECRET:
    "the webhook signing secret (starts with whsec_): Stripe Dashboard > Developers > Webhooks, https://dashboard.stripe.com/webhooks, after adding the endpoint below with the event payment_intent.succeeded",
};

/**
 * POST /api/ask-secrets: emails every active admin which keys are missing and where to find them in the
 * Stripe dashboard, through the outbox (so it is kept and retried). Answers what it did.
 */
export async function askForSecrets(options: { db: Db; gateway: StripeGateway; names: string[]; userMessage: string; origin: string }) {
  const names = [...new Set(options.names.map((name) => name.trim()).filter(Boolean))];
  if (names.length === 0) throw new AppError("BAD_REQUEST", NO_SECRET_KEYS, { errors: { secret_keys: NO_SECRET_KEYS } });
  const admins = await options.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.status, "active"), isNotNull(users.email)));
  const { platformName } = await readPlatformSettings(options.db);
  const lines = names.map((name) => `- ${name}: ${isKeyName(name) ? WHERE[name] : "not a key this product uses"}`);
  const text = [
    `${platformName} needs its Stripe keys to take Early Access payments.`,
    "",
    ...lines,
    "",
    `Webhook endpoint: ${options.origin}/api/stripe/webhook`,
    "Set them as environment variables (STRIPE_SECRET_KEY, VITE_STRIPE_PUBLIC_KEY, STRIPE_WEBHOOK_SECRET) and restart,",
    `or enter them on the Payment Settings page: ${options.origin}/admin/payment-settings`,
    ...(options.userMessage.trim() ? ["", "Message:", options.userMessage.trim()] : []),
  ].join("\n");
  const html = `<div style="font-family: sans-serif; white-space: pre-wrap;">${escapeHtml(text)}</div>`;
  const recipients = admins.flatMap((admin) => (admin.email ? [admin.email] : []));
  await options.db.transaction(async (tx) => {
    for (const to of recipients) {
      await queueRendered({ db: tx, to, templateSlug: null, subject: `${platformName}: Stripe keys needed`, text, html });
    }
  });
  const message =
    recipients.length === 0
      ? "No administrator has an email address, so no one was emailed. Add the keys as environment variables or on this page."
      : `We emailed ${recipients.length} administrator${recipients.length === 1 ? "" : "s"} where to find ${names.join(", ")} in the Stripe dashboard. Once the keys are set, check the server logs and this page's key status.`;
  return { message, notified: recipients.length };
}
