import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { DEFAULT_PAYMENT_SETTINGS } from "../../../shared/constants.js";
import type { AdminPaymentSettings, paymentSettingsBodySchema } from "../../../shared/contracts/payments.js";
import type { PaymentSettingsPublic } from "../../../shared/contracts/public-content.js";
import { toMinorUnits } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { paymentSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { StripeGateway } from "./gateway.js";
import { atOtherPrice, settleVoided, voidOpenCheckouts } from "./price-change.js";
import { paymentsAvailable } from "./stripe-keys.js";

const PAYMENT_SETTINGS_LOCK = 727_030;
/** How long a price save waits for Stripe to cancel the intents it voided. */
const SETTLE_WAIT_MS = 10_000;

/** "297.00" -> "297", "19.50" stays. */
const trimAmount = (amount: string) => amount.replace(/\.00$/, "");

/** The price in force: the saved one, or the product's USD 297. */
export async function readPrice(db: Db): Promise<{ earlyAccessPrice: string; currency: string }> {
  const [row] = await db
    .select({ currency: paymentSettings.currency, earlyAccessPrice: paymentSettings.earlyAccessPrice })
    .from(paymentSettings)
    .orderBy(asc(paymentSettings.id))
    .limit(1);
  if (!row) return { ...DEFAULT_PAYMENT_SETTINGS };
  return { currency: row.currency.toUpperCase(), earlyAccessPrice: trimAmount(row.earlyAccessPrice) };
}

/** GET /api/payment-settings: the price, whether payments can be taken, and the publishable key. */
export async function getPublicPaymentSettings(options: { db: Db; gateway: StripeGateway }): Promise<PaymentSettingsPublic> {
  const [price, keys] = await Promise.all([readPrice(options.db), options.gateway.keys()]);
  const available = paymentsAvailable(keys);
  return { ...price, paymentsAvailable: available, publishableKey: available ? keys.publishableKey : null };
}

/** GET /api/admin/payment-settings: the saved row (or the defaults, with `id: null`) and the key status. */
export async function getAdminPaymentSettings(options: { db: Db; gateway: StripeGateway }): Promise<AdminPaymentSettings> {
  const [[row], keys] = await Promise.all([
    options.db.select().from(paymentSettings).orderBy(asc(paymentSettings.id)).limit(1),
    options.gateway.keys(),
  ]);
  return {
    id: row?.id ?? null,
    earlyAccessPrice: row ? trimAmount(row.earlyAccessPrice) : DEFAULT_PAYMENT_SETTINGS.earlyAccessPrice,
    currency: row ? row.currency.toUpperCase() : DEFAULT_PAYMENT_SETTINGS.currency,
    stripePriceId: row?.stripePriceId ?? null,
    stripeProductId: row?.stripeProductId ?? null,
    keys: keys.status,
    paymentsAvailable: paymentsAvailable(keys),
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

type Body = z.output<typeof paymentSettingsBodySchema>;

/** Blank keeps the stored key, null removes it, text replaces it (sealed). */
function sealedKey(value: string | null | undefined, secrets: SecretBox): string | null | undefined {
  if (value === undefined || value === "") return undefined;
  return value === null ? null : secrets.seal(value);
}

/**
 * POST (none saved yet: 409 otherwise) and PATCH (404 when none is saved) of the admin page. Saving a price
 * voids, in the same transaction, every open checkout whose intent records another price, then cancels those
 * intents at Stripe (decision 029): a visitor still on the page is told to start again, and a payment that
 * reaches a voided checkout never grants Early Access at the old price (unless Stripe had already taken it
 * when the cancel arrived: that payment is honoured).
 */
export async function savePaymentSettings(options: {
  db: Db;
  secrets: SecretBox;
  gateway: StripeGateway;
  input: Body;
  mode: "create" | "update";
}): Promise<AdminPaymentSettings> {
  const { db, input, secrets } = options;
  const values = {
    earlyAccessPrice: input.earlyAccessPrice,
    currency: input.currency,
    ...(input.stripePriceId !== undefined ? { stripePriceId: input.stripePriceId } : {}),
    ...(input.stripeProductId !== undefined ? { stripeProductId: input.stripeProductId } : {}),
    ...keyColumn("stripeSecretKeyEncrypted", sealedKey(input.stripeSecretKey, secrets)),
    ...keyColumn("stripePublishableKeyEncrypted", sealedKey(input.stripePublishableKey, secrets)),
    ...keyColumn("stripeWebhookSecretEncrypted", sealedKey(input.stripeWebhookSecret, secrets)),
    updatedAt: new Date(),
  };
  // The schema checked the price converts (a positive amount in the currency's minor units).
  const price = { amountMinor: toMinorUnits(input.earlyAccessPrice, input.currency) ?? 0, currency: input.currency.toLowerCase() };
  const voided = await db.transaction(async (tx) => {
    // One settings row: the first one, locked so two saves cannot both create it, and no intent is recorded
    // at the old price once the new one is saved (ensureIntent takes this lock shared).
    await tx.execute(sql`select pg_advisory_xact_lock(${PAYMENT_SETTINGS_LOCK})`);
    const [row] = await tx.select({ id: paymentSettings.id }).from(paymentSettings).orderBy(asc(paymentSettings.id)).limit(1);
    if (options.mode === "create") {
      if (row) throw new AppError("CONFLICT", "Payment settings already exist: save them with PATCH.");
      await tx.insert(paymentSettings).values(values);
    } else {
      if (!row) throw new AppError("NOT_FOUND", "No payment settings are saved yet: create them with POST.");
      await tx.update(paymentSettings).set(values).where(eq(paymentSettings.id, row.id));
    }
    return voidOpenCheckouts(tx, atOtherPrice(price));
  });
  if (voided.length > 0) {
    // With the keys just saved. The admin waits up to 10 s (Stripe down or slow: what is left goes on in the
    // background, and whatever Stripe never confirms the reconciler cancels later).
    const stripe = await options.gateway.stripeIfConfigured().catch(() => null);
    if (stripe) {
      const settling = settleVoided({ db, stripe }, voided, { honour: true }).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settling, new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_WAIT_MS)))]);
      clearTimeout(timer);
    }
  }
  return getAdminPaymentSettings(options);
}

/**
 * Records a new intent's price on its checkout only while that price is still the one in force: run under
 * the settings lock taken shared, so a price save (which takes it exclusively and voids what it finds) comes
 * wholly before or after. Returns false when the price changed since the intent was made.
 */
export async function recordIntentAtCurrentPrice(
  db: Db,
  intent: { amountMinor: number; currency: string },
  record: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${PAYMENT_SETTINGS_LOCK})`);
    const now = await readPrice(tx);
    if (toMinorUnits(now.earlyAccessPrice, now.currency) !== intent.amountMinor || now.currency.toLowerCase() !== intent.currency)
      return false;
    await record(tx);
    return true;
  });
}

function keyColumn<K extends string>(column: K, value: string | null | undefined): Partial<Record<K, string | null>> {
  return value === undefined ? {} : ({ [column]: value } as Record<K, string | null>);
}
