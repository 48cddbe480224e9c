import { z } from "zod";
import { endpoint } from "./endpoint.js";
import { firstScreenReads } from "./first-screen-reads.js";

/** The price as the product shows it (currency and earlyAccessPrice, USD 297 when none is saved). */
export const priceReadingSchema = z.object({
  currency: z.string(),
  earlyAccessPrice: z.string(),
});

/**
 * GET /api/payment-settings: the price, whether card payments can be taken now, and Stripe's publishable
 * key, served at run time (never baked into the bundle) so an admin can set it without a rebuild.
 */
export const paymentSettingsPublicSchema = priceReadingSchema.extend({
  paymentsAvailable: z.boolean(),
  publishableKey: z.string().nullable(),
});
export type PaymentSettingsPublic = z.infer<typeof paymentSettingsPublicSchema>;

export const gettingStartedVideoSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string().nullable(),
  embedUrl: z.string(),
  order: z.number().int(),
  isActive: z.boolean(),
});
export type GettingStartedVideo = z.infer<typeof gettingStartedVideoSchema>;

/**
 * GET /api/platform-settings (public): the product name, the payment reading, and the switches the web
 * reacts to (Register tab, model picker, Save Chat History). The server enforces each switch itself.
 */
export const platformSettingsPublicSchema = priceReadingSchema.extend({
  platformName: z.string(),
  allowRegistration: z.boolean(),
  enableHistory: z.boolean(),
  enableModelSelection: z.boolean(),
  /** The contact page's address (null: not set). */
  supportEmail: z.string().nullable(),
});
export type PlatformSettingsPublic = z.infer<typeof platformSettingsPublicSchema>;

/** Reads the sign-in and registration screens need before anyone is signed in. */
export const publicContentApi = {
  paymentSettings: endpoint({ ...firstScreenReads.paymentSettings, response: paymentSettingsPublicSchema }),
  platformSettings: endpoint({ ...firstScreenReads.platformSettings, response: platformSettingsPublicSchema }),
  videos: endpoint({ method: "GET", path: "/api/getting-started-videos", access: "public", response: z.array(gettingStartedVideoSchema) }),
};
