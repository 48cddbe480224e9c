// What the checkout tests share: a browser with its own cookies and address, step 2's form, and the calls that
// start and finish a checkout against the app and the local Stripe stand-in.
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { FAKE_STRIPE_PUBLISHABLE_KEY, FAKE_STRIPE_SECRET_KEY, type StripeFake, startStripeFake } from "../fakes/stripe-fake.js";
import { buildTestApp, CookieClient, newAccount, type TestApp } from "./build-test-app.js";

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
/** An address no other browser of the file uses (unless given to it). */
export const newAddress = () => `10.9.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

/**
 * A browser: its own cookie jar and its own address (the per-IP sign-up budget and checkout holds never leak
 * between tests), or the address given (several browsers behind one network).
 */
export class Browser extends CookieClient {
  readonly ip: string;
  constructor(app: FastifyInstance, ip?: string) {
    super(app);
    this.ip = ip ?? newAddress();
  }
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
  const browser = (ip?: string) => new Browser(get().app, ip);
  return {
    browser,
    /** A browser (a new one unless given) that started a checkout with a valid form. */
    async started(body: CheckoutForm = checkoutForm(), client: Browser = browser()) {
      const res = await client.post(START, body);
      expect(res.statusCode, res.body).toBe(200);
      const { clientSecret, paymentIntentId } = res.json() as { clientSecret: string; paymentIntentId: string };
      return { client, body, clientSecret, intentId: paymentIntentId };
    },
    finish: (client: CookieClient, paymentIntentId: string) => client.post("/api/register", { planType: "earlyAccess", paymentIntentId }),
    /** The checkout page's status read (it renews a registration's hold). */
    status: (client: CookieClient, paymentIntentId: string) =>
      client.get(`/api/early-access/checkout?paymentIntentId=${encodeURIComponent(paymentIntentId)}`),
    intentOf(id: string) {
      const intent = get().fake.intents.get(id);
      if (!intent) throw new Error(`the fake has no intent ${id}`);
      return intent;
    },
  };
}

export interface CheckoutStage {
  t: TestApp;
  fake: StripeFake;
  /** The first account of the empty database, so an admin: the checkouts of the file make plain users. */
  admin: Browser;
}

/**
 * The stage of a checkout test file: before its tests a Stripe stand-in, the app pointed at it and the admin
 * (handed to `ready`); after each test the stand-in up and quick again; after all, both closed.
 */
export function checkoutStage(webhookSecret: string, ready: (stage: CheckoutStage) => void): void {
  let stage: CheckoutStage | undefined;
  beforeAll(async () => {
    const fake = await startStripeFake({ acceptedSecretKey: FAKE_STRIPE_SECRET_KEY });
    const t = await buildTestApp({ env: stripeEnv(fake, webhookSecret) });
    const admin = new Browser(t.app);
    expect((await admin.post("/api/register", newAccount())).json()).toMatchObject({ role: "admin" });
    stage = { t, fake, admin };
    ready(stage);
  });
  afterEach(() => {
    if (!stage) return;
    stage.fake.down = false;
    stage.fake.delayMs = 0;
  });
  afterAll(async () => {
    await stage?.t.close();
    await stage?.fake.close();
  });
}
