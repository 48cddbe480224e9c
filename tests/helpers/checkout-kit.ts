// What the checkout tests share: a browser with its own cookies and address, step 2's form, and the calls that
// start and finish a checkout against the app and the local Stripe stand-in.
import type { FastifyInstance, InjectOptions } from "fastify";
import { expect } from "vitest";
import type { StripeFake } from "../fakes/stripe-fake.js";
import { FAKE_STRIPE_PUBLISHABLE_KEY, FAKE_STRIPE_SECRET_KEY } from "../fakes/stripe-fake.js";
import { CookieClient, newAccount } from "./build-test-app.js";

export const START = "/api/create-payment-intent";

/** The environment that points the app's Stripe client at the stand-in. */
export function stripeEnv(fake: StripeFake, webhookSecret: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
    VITE_STRIPE_PUBLIC_KEY: FAKE_STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: fake.url,
  };
}

let ipCounter = 0;

/** A browser: its own cookie jar and its own address (the per-IP sign-up budget never leaks between tests). */
export class Browser extends CookieClient {
  readonly ip = `10.9.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
  override request(options: InjectOptions) {
    return super.request({ remoteAddress: this.ip, ...options });
  }
}

/** Step 2's registration form, valid and unique. */
export function checkoutForm(overrides: Record<string, unknown> = {}) {
  const { username, name, email, password } = newAccount();
  return { username, name, email, password, confirmPassword: password, acceptTerms: true, ...overrides };
}
export type CheckoutForm = ReturnType<typeof checkoutForm>;

/** The calls of a checkout test, bound to the app and the stand-in of the file (read when called). */
export function checkoutKit(get: () => { app: FastifyInstance; fake: StripeFake }) {
  const browser = () => new Browser(get().app);
  return {
    browser,
    /** A browser that started a checkout with a valid form. */
    async started(body: CheckoutForm = checkoutForm()) {
      const client = browser();
      const res = await client.post(START, body);
      expect(res.statusCode, res.body).toBe(200);
      const { clientSecret, paymentIntentId } = res.json() as { clientSecret: string; paymentIntentId: string };
      return { client, body, clientSecret, intentId: paymentIntentId };
    },
    finish: (client: CookieClient, paymentIntentId: string) => client.post("/api/register", { planType: "earlyAccess", paymentIntentId }),
    intentOf(id: string) {
      const intent = get().fake.intents.get(id);
      if (!intent) throw new Error(`the fake has no intent ${id}`);
      return intent;
    },
  };
}
