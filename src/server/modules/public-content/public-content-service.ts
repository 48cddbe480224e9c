import { asc, eq } from "drizzle-orm";
import type { GettingStartedVideo, PlatformSettingsPublic } from "../../../shared/contracts/public-content.js";
import { toEmbedUrl } from "../../../shared/embed-url.js";
import type { Db } from "../../db/client.js";
import { gettingStartedVideos } from "../../db/schema/index.js";
import { readPrice } from "../payments/settings-service.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

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
  const [settings, payment] = await Promise.all([readPlatformSettings(db), readPrice(db)]);
  return {
    platformName: settings.platformName,
    allowRegistration: settings.allowRegistration,
    enableHistory: settings.enableHistory,
    enableModelSelection: settings.enableModelSelection,
    supportEmail: settings.supportEmail,
    ...payment,
  };
}
