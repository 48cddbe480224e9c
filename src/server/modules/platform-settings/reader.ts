import { asc, sql } from "drizzle-orm";
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
  toolMaxSteps: 8,
  toolCallTimeoutSeconds: 30,
  apiTokenPlans: ["free", "earlyAccess"],
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

/**
 * The model-selection settings (what `adminChosenModel` reads) as subqueries another read carries: a reply reads
 * them with its chat, in one round trip (issue 15). The same row as `readPlatformSettings`: the first one.
 */
export const modelSelectionColumns = {
  enableModelSelection: sql<
    boolean | null
  >`(select ${platformSettings.enableModelSelection} from ${platformSettings} order by ${platformSettings.id} limit 1)`,
  defaultModel: sql<
    string | null
  >`(select ${platformSettings.defaultModel} from ${platformSettings} order by ${platformSettings.id} limit 1)`,
};

/** `modelSelectionColumns` as read: the defaults while no admin has saved any settings. */
export function modelSelectionOf(read: {
  enableModelSelection: boolean | null;
  defaultModel: string | null;
}): Pick<EffectivePlatformSettings, "enableModelSelection" | "defaultModel"> {
  return {
    enableModelSelection: read.enableModelSelection ?? DEFAULTS.enableModelSelection,
    defaultModel: read.defaultModel ?? DEFAULTS.defaultModel,
  };
}
