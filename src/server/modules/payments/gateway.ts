import type Stripe from "stripe";
import { PAYMENTS_UNAVAILABLE } from "../../../shared/contracts/payments.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { paymentsAvailable, resolveStripeKeys, type StripeKeys } from "./stripe-keys.js";

/** The environment's Stripe settings (config.ts reads them). */
export interface StripeEnv {
  STRIPE_SECRET_KEY?: string | undefined;
  VITE_STRIPE_PUBLIC_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_URL?: string | undefined;
}

/** Where the `stripe` client sends its calls: Stripe's API, or STRIPE_API_URL (a proxy, a local stand-in). */
function apiTarget(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

/** The SDK loads on the first payment call (about a second of start-up otherwise, for every instance). */
let sdk: Promise<typeof import("stripe").default> | null = null;
const loadSdk = () => {
  sdk ??= import("stripe").then((module) => module.default);
  return sdk;
};

/**
 * The one way the server reaches Stripe: the keys in use (environment first, then the admin's), and a
 * `stripe` client per secret key, pointed at STRIPE_API_URL when set. A network failure is retried twice
 * by the SDK and answers within 20 s.
 */
export class StripeGateway {
  private client: { key: string; stripe: Stripe } | null = null;

  constructor(private readonly deps: { db: Db; secrets: SecretBox; config: StripeEnv }) {}

  keys(): Promise<StripeKeys> {
    return resolveStripeKeys({ db: this.deps.db, secrets: this.deps.secrets, env: this.deps.config });
  }

  /** The client for the secret key in use; 503 with the product's text when payments are not set up. */
  async stripe(): Promise<{ stripe: Stripe; keys: StripeKeys }> {
    const keys = await this.keys();
    if (!keys.secretKey || !paymentsAvailable(keys)) throw new AppError("UNAVAILABLE", PAYMENTS_UNAVAILABLE);
    return { stripe: await this.clientFor(keys.secretKey), keys };
  }

  /** The client for the secret key in use, or null when there is none (the reconciler then waits). */
  async stripeIfConfigured(): Promise<Stripe | null> {
    const keys = await this.keys();
    return keys.secretKey ? await this.clientFor(keys.secretKey) : null;
  }

  /** Checks a webhook's signature on the raw body (Stripe's own check: HMAC and a 5-minute tolerance). */
  async verifyWebhook(rawBody: Buffer, signature: string, secret: string): Promise<Stripe.Event> {
    const StripeSdk = await loadSdk();
    return StripeSdk.webhooks.constructEvent(rawBody, signature, secret);
  }

  private async clientFor(secretKey: string): Promise<Stripe> {
    const StripeSdk = await loadSdk();
    if (this.client?.key !== secretKey) {
      this.client = {
        key: secretKey,
        stripe: new StripeSdk(secretKey, { ...apiTarget(this.deps.config.STRIPE_API_URL), maxNetworkRetries: 2, timeout: 20_000 }),
      };
    }
    return this.client.stripe;
  }
}
