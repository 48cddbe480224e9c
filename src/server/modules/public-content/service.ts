import { asc, eq } from "drizzle-orm";
import { DEFAULT_PAYMENT_SETTINGS } from "../../../shared/constants.js";
import type { GettingStartedVideo, PaymentSettingsPublic, PlatformSettingsPublic } from "../../../shared/contracts/public-content.js";
import { toEmbedUrl } from "../../../shared/embed-url.js";
import type { Db } from "../../db/client.js";
import { gettingStartedVideos, paymentSettings } from "../../db/schema/index.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

/** "297.00" -> "297", "19.50" stays. */
const trimAmount = (amount: string) => amount.replace(/\.00$/, "");

export async function getPublicPaymentSettings({ db }: { db: Db }): Promise<PaymentSettingsPublic> {
  const [row] = await db
    .select({ currency: paymentSettings.currency, earlyAccessPrice: paymentSettings.earlyAccessPrice })
    .from(paymentSettings)
    .orderBy(asc(paymentSettings.id))
    .limit(1);
  if (!row) return { ...DEFAULT_PAYMENT_SETTINGS };
  return { currency: row.currency.toUpperCase(), earlyAccessPrice: trimAmount(row.earlyAccessPrice) };
}

/** Active videos in order; an address that is not an allowed https player is left out, never embedded. */
export async function listActiveVideos(options: { db: Db; extraEmbedHosts: readonly string[] }): Promise<GettingStartedVideo[]> {
  const rows = await options.db
    .select({
      id: gettingStartedVideos.id,
      title: gettingStartedVideos.title,
      subtitle: gettingStartedVideos.subtitle,
      description: gettingStartedVideos.description,
      embedUrl: gettingStartedVideos.embedUrl,
      order: gettingStartedVideos.order,
      isActive: gettingStartedVideos.isActive,
    })
    .from(gettingStartedVideos)
    .where(eq(gettingStartedVideos.isActive, true))
    .orderBy(asc(gettingStartedVideos.order), asc(gettingStartedVideos.id));
  return rows.flatMap((video) => {
    const embedUrl = toEmbedUrl(video.embedUrl, options.extraEmbedHosts);
    return embedUrl ? [{ ...video, embedUrl }] : [];
  });
}

/** The product name, the payment reading, and the switches the web reacts to (the server enforces each itself). */
export async function getPublicPlatformSettings({ db }: { db: Db }): Promise<PlatformSettingsPublic> {
  const [settings, payment] = await Promise.all([readPlatformSettings(db), getPublicPaymentSettings({ db })]);
  return {
    platformName: settings.platformName,
    allowRegistration: settings.allowRegistration,
    enableHistory: settings.enableHistory,
    enableModelSelection: settings.enableModelSelection,
    ...payment,
  };
}
