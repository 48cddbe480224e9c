import { asc } from "drizzle-orm";
import type { KeyStatus } from "../../../shared/contracts/payments.js";
import type { Db } from "../../db/client.js";
import { paymentSettings } from "../../db/schema/index.js";
import { keyHint } from "../../lib/key-hint.js";
import type { SecretBox } from "../../lib/secret-box.js";

/** The keys in use: each from the environment when set there, else the one an admin stored (decrypted). */
export interface StripeKeys {
  secretKey: string | null;
  publishableKey: string | null;
  webhookSecret: string | null;
  status: { secretKey: KeyStatus; publishableKey: KeyStatus; webhookSecret: KeyStatus };
}

type EnvKeys = {
  STRIPE_SECRET_KEY?: string | undefined;
  VITE_STRIPE_PUBLIC_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
};

/** What each key starts with: a key of the wrong kind counts as missing (a secret key is never served as the publishable one). */
const PREFIXES = { secretKey: ["sk_", "rk_"], publishableKey: ["pk_"], webhookSecret: ["whsec_"] } as const;
const ofKind = (key: string | null, kind: keyof typeof PREFIXES) => (key && PREFIXES[kind].some((p) => key.startsWith(p)) ? key : null);

function pick(
  kind: keyof typeof PREFIXES,
  envValue: string | undefined,
  sealed: string | null,
  secrets: SecretBox,
): { key: string | null; status: KeyStatus } {
  const fromEnv = ofKind(envValue?.trim() || null, kind);
  let stored: string | null = null;
  if (sealed) {
    try {
      stored = ofKind(secrets.open(sealed), kind);
    } catch {
      stored = null; // Sealed under another APP_SECRET: it counts as missing until an admin enters it again.
    }
  }
  const key = fromEnv ?? stored;
  return {
    key,
    status: {
      present: key !== null,
      source: fromEnv ? "environment" : stored ? "stored" : null,
      hint: key ? keyHint(key) : null,
      stored: stored !== null,
    },
  };
}

export async function resolveStripeKeys(options: { db: Db; secrets: SecretBox; env: EnvKeys }): Promise<StripeKeys> {
  const [row] = await options.db
    .select({
      secretKey: paymentSettings.stripeSecretKeyEncrypted,
      publishableKey: paymentSettings.stripePublishableKeyEncrypted,
      webhookSecret: paymentSettings.stripeWebhookSecretEncrypted,
    })
    .from(paymentSettings)
    .orderBy(asc(paymentSettings.id))
    .limit(1);
  const secret = pick("secretKey", options.env.STRIPE_SECRET_KEY, row?.secretKey ?? null, options.secrets);
  const publishable = pick("publishableKey", options.env.VITE_STRIPE_PUBLIC_KEY, row?.publishableKey ?? null, options.secrets);
  const webhook = pick("webhookSecret", options.env.STRIPE_WEBHOOK_SECRET, row?.webhookSecret ?? null, options.secrets);
  return {
    secretKey: secret.key,
    publishableKey: publishable.key,
    webhookSecret: webhook.key,
    status: { secretKey: secret.status, publishableKey: publishable.status, webhookSecret: webhook.status },
  };
}

/** Card payments need the secret key (server) and the publishable key (browser). */
export const paymentsAvailable = (keys: Pick<StripeKeys, "secretKey" | "publishableKey">) => Boolean(keys.secretKey && keys.publishableKey);
