import { z } from "zod";
import { PRICE_PATTERN, toMinorUnits } from "../money.js";
import { acceptTermsField, paymentIntentIdField, publicUserSchema, registrationFieldsSchema } from "./auth.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { confirmed, confirmPasswordField } from "./fields.js";

/** The three Stripe keys: environment variables, or entered by an admin (docs/product.md, Early Access and payments). */
export const STRIPE_KEY_NAMES = ["STRIPE_SECRET_KEY", "VITE_STRIPE_PUBLIC_KEY", "STRIPE_WEBHOOK_SECRET"] as const;
export type StripeKeyName = (typeof STRIPE_KEY_NAMES)[number];

export const PAYMENTS_UNAVAILABLE = "Stripe payment processing is not available. Please check your Stripe configuration.";
export const NO_SECRET_KEYS = "No secret keys provided";
export const MISSING_REGISTRATION = "We couldn't find your registration information. Please try registering again.";
export const ALREADY_EARLY_ACCESS = "Your account already has Early Access.";
/** A checkout voided by a price change (decision 029): its intent is cancelled; a new checkout shows the new price. */
export const PRICE_CHANGED = "The price changed while you were paying. Start again to see the new price.";

// ---------------------------------------------------------------------------------------------------------
// Payment Settings (admin)

const PRICE_MAX_MINOR = 99_999_999;

/** Price and currency as the form and the server check them. The words are the settings screens'. */
export const paymentSettingsFormSchema = z
  .object({
    earlyAccessPrice: z
      .string({ error: "Price is required" })
      .trim()
      .min(1, "Price is required")
      .regex(PRICE_PATTERN, "Enter a price such as 297 or 19.50"),
    currency: z
      .string({ error: "Currency is required" })
      .trim()
      .min(1, "Currency is required")
      .regex(/^[A-Za-z]{3}$/, "Use a three-letter currency code such as USD")
      .transform((code) => code.toUpperCase()),
  })
  .superRefine((value, ctx) => {
    const minor = toMinorUnits(value.earlyAccessPrice, value.currency);
    if (minor === null) ctx.addIssue({ code: "custom", path: ["earlyAccessPrice"], message: `${value.currency} prices have no decimals` });
    else if (minor < 1) ctx.addIssue({ code: "custom", path: ["earlyAccessPrice"], message: "The price must be more than zero" });
    else if (minor > PRICE_MAX_MINOR) ctx.addIssue({ code: "custom", path: ["earlyAccessPrice"], message: "The price is too large" });
  });
export type PaymentSettingsForm = z.input<typeof paymentSettingsFormSchema>;

const stripeIdField = z
  .string()
  .trim()
  .max(200, "Stripe ids are shorter than 200 characters")
  .regex(/^[A-Za-z0-9_]*$/, "A Stripe id has only letters, digits and underscores")
  .transform((id) => id || null)
  .nullable()
  .optional();

/** A key typed on the page: blank keeps the stored one, null removes it, text replaces it. */
const keyField = (prefix: string, label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} is too long`)
    .refine((key) => key === "" || key.startsWith(prefix), `${label} starts with ${prefix}`)
    .nullable()
    .optional();

/** POST and PATCH /api/admin/payment-settings. */
export const paymentSettingsBodySchema = z.intersection(
  paymentSettingsFormSchema,
  z.object({
    stripePriceId: stripeIdField,
    stripeProductId: stripeIdField,
    stripeSecretKey: keyField("sk_", "The secret key"),
    stripePublishableKey: keyField("pk_", "The publishable key"),
    stripeWebhookSecret: keyField("whsec_", "The webhook signing secret"),
  }),
);
export type PaymentSettingsBody = z.input<typeof paymentSettingsBodySchema>;

export const keyStatusSchema = z.object({
  present: z.boolean(),
  /** Where the key in use comes from: the environment wins over one stored by an admin. */
  source: z.enum(["environment", "stored"]).nullable(),
  /** The first characters and the last 4 of the key in use (never the key). */
  hint: z.string().nullable(),
  /** An admin stored one too (shadowed while the environment has one). */
  stored: z.boolean(),
});
export type KeyStatus = z.infer<typeof keyStatusSchema>;

export const adminPaymentSettingsSchema = z.object({
  /** Null until an admin saves settings (the defaults show): the page then POSTs, else PATCHes. */
  id: z.number().int().nullable(),
  earlyAccessPrice: z.string(),
  currency: z.string(),
  stripePriceId: z.string().nullable(),
  stripeProductId: z.string().nullable(),
  keys: z.object({ secretKey: keyStatusSchema, publishableKey: keyStatusSchema, webhookSecret: keyStatusSchema }),
  /** The secret and publishable keys are both there: the checkout can take payments. */
  paymentsAvailable: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type AdminPaymentSettings = z.infer<typeof adminPaymentSettingsSchema>;

/** A paid checkout that could not finish (the username was taken meanwhile, the account was deleted...). */
export const unfinishedPaymentSchema = z.object({
  id: z.number().int(),
  kind: z.enum(["register", "upgrade"]),
  username: z.string(),
  email: z.string().nullable(),
  paymentIntentId: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  problem: z.string(),
  updatedAt: z.string(),
});
export type UnfinishedPayment = z.infer<typeof unfinishedPaymentSchema>;

// ---------------------------------------------------------------------------------------------------------
// Secrets calls (the names are the environment variables)

export const checkSecretsBodySchema = z.object({
  secretKeys: z.array(z.string().max(100)).max(20),
});

export const askSecretsBodySchema = z.object({
  secret_keys: z.array(z.string().max(100)).max(20),
  user_message: z.string().max(5000).default(""),
});

export const askSecretsResultSchema = z.object({ message: z.string(), notified: z.number().int() });

// ---------------------------------------------------------------------------------------------------------
// Checkout

/**
 * POST /api/create-payment-intent. A signed-out visitor sends the registration form (step 2) to start a
 * checkout, or nothing to resume the one this browser started (the checkout page); a signed-in free user
 * sends nothing to upgrade their own account.
 */
export const checkoutRegistrationSchema = confirmed(
  registrationFieldsSchema.extend({ confirmPassword: confirmPasswordField, acceptTerms: acceptTermsField }),
);
export type CheckoutRegistration = z.input<typeof checkoutRegistrationSchema>;

/** The form's fields flat, as step 2 sends them; no body (or `{}`) means "the checkout this browser or account has". */
export const createPaymentIntentBodySchema = z.preprocess(
  (body) => (body == null || (typeof body === "object" && Object.keys(body).length === 0) ? undefined : body),
  checkoutRegistrationSchema.optional(),
);

export const paymentIntentResultSchema = z.object({ clientSecret: z.string(), paymentIntentId: z.string() });

export const completeUpgradeBodySchema = z.object({ paymentIntentId: paymentIntentIdField });

export const checkoutStatusQuerySchema = z.object({ paymentIntentId: paymentIntentIdField });

/** GET /api/early-access/checkout: what the checkout page asks while it is open (it also keeps the hold alive). */
export const checkoutStatusSchema = z.object({
  /** `open`: it can still be paid; `completed`: paid and finished (a registration still signs in with POST /api/register). */
  state: z.enum(["open", "completed"]),
  /** How long a registration keeps its username and email once its page stops asking. */
  holdIdleSeconds: z.number().int(),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/** Cancel on a checkout whose payment already went through: it finishes instead. */
export const CHECKOUT_ALREADY_PAID =
  "Your payment already went through, so this checkout can no longer be cancelled. Your account is being set up.";

/**
 * GET /api/early-access/registration: the registration checkout this browser started (its httpOnly cookie),
 * display data only (never the password): `open` while it can still be paid (the page resumes it), else ended
 * (the Register tab is filled in again). Null for any other browser.
 */
export const ownRegistrationSchema = z.object({
  registration: z.object({ username: z.string(), name: z.string(), email: z.string(), open: z.boolean() }).nullable(),
});
export type OwnRegistration = z.infer<typeof ownRegistrationSchema>;

export const paymentsApi = {
  createPaymentIntent: endpoint({
    method: "POST",
    path: "/api/create-payment-intent",
    access: "public",
    body: createPaymentIntentBodySchema,
    response: paymentIntentResultSchema,
  }),
  /** The end of a signed-in free user's checkout (a new account ends with POST /api/register). */
  completeUpgrade: endpoint({
    method: "POST",
    path: "/api/early-access/complete",
    access: "user",
    body: completeUpgradeBodySchema,
    response: publicUserSchema,
  }),
  /**
   * The checkout the page shows, by its intent: this browser's registration (its cookie) or this account's
   * upgrade. Answers 409 with PRICE_CHANGED once a price change voided it, and renews a registration's hold.
   */
  checkoutStatus: endpoint({
    method: "GET",
    path: "/api/early-access/checkout",
    access: "public",
    query: checkoutStatusQuerySchema,
    response: checkoutStatusSchema,
  }),
  /** This browser's registration checkout (its cookie), for its page after the tab was closed. */
  ownRegistration: endpoint({
    method: "GET",
    path: "/api/early-access/registration",
    access: "public",
    response: ownRegistrationSchema,
  }),
  /** Cancel on the checkout page: this browser's registration checkout ends and its intent is cancelled. */
  cancelCheckout: endpoint({
    method: "POST",
    path: "/api/early-access/checkout/cancel",
    access: "public",
    response: z.null(),
    kind: "empty",
  }),
  /** Stripe's calls: the body is read raw and its signature checked (never JSON-parsed before). */
  webhook: endpoint({ method: "POST", path: "/api/stripe/webhook", access: "public", response: z.object({ received: z.boolean() }) }),
  checkSecrets: endpoint({
    method: "POST",
    path: "/api/check-secrets",
    access: "admin",
    body: checkSecretsBodySchema,
    response: z.record(z.string(), z.boolean()),
  }),
  askSecrets: endpoint({
    method: "POST",
    path: "/api/ask-secrets",
    access: "admin",
    body: askSecretsBodySchema,
    response: askSecretsResultSchema,
  }),
};

export const adminPaymentsApi = {
  get: endpoint({ method: "GET", path: "/api/admin/payment-settings", access: "admin", response: adminPaymentSettingsSchema }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/payment-settings",
    access: "admin",
    body: paymentSettingsBodySchema,
    response: adminPaymentSettingsSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/payment-settings",
    access: "admin",
    body: paymentSettingsBodySchema,
    response: adminPaymentSettingsSchema,
  }),
  unfinished: endpoint({
    method: "GET",
    path: "/api/admin/unfinished-payments",
    access: "admin",
    response: z.array(unfinishedPaymentSchema),
  }),
  resolveUnfinished: endpoint({
    method: "POST",
    path: "/api/admin/unfinished-payments/:id/resolve",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
