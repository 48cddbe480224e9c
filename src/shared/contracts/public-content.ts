import { z } from "zod";

export const paymentSettingsPublicSchema = z.object({
  currency: z.string(),
  earlyAccessPrice: z.string(),
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
