import { asc } from "drizzle-orm";
import { PLATFORM_SETTINGS_DEFAULTS } from "../../../shared/constants.js";
import type { Db } from "../../db/client.js";
import { platformSettings } from "../../db/schema/index.js";

export type PlatformSettingsRow = typeof platformSettings.$inferSelect;

/** The settings as the product applies them; `stored` is false while no admin has saved any. */
export type EffectivePlatformSettings = Omit<PlatformSettingsRow, "id" | "updatedAt"> & { updatedAt: Date | null; stored: boolean };

const DEFAULTS: EffectivePlatformSettings = {
  ...PLATFORM_SETTINGS_DEFAULTS,
  smtpHost: null,
  smtpPort: "587",
  smtpSecure: false,
  smtpUser: null,
  smtpPassEncrypted: null,
  smtpFromEmail: null,
  smtpFromName: null,
  supportEmail: null,
  updatedAt: null,
  stored: false,
};

/**
 * The one reader of the platform settings (registration, chats, the public read, the admin page).
 * It reads the database every time: one primary-key read of a one-row table, so every instance sees a
 * change at once with no cache to invalidate (several instances run behind Redis). Takes a transaction
 * too, so a check can sit inside the transaction it guards.
 */
export async function readPlatformSettings(db: Pick<Db, "select">): Promise<EffectivePlatformSettings> {
  const [row] = await db.select().from(platformSettings).orderBy(asc(platformSettings.id)).limit(1);
  if (!row) return { ...DEFAULTS };
  const { id: _id, ...settings } = row;
  return { ...settings, stored: true };
}
