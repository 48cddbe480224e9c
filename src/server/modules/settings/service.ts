import { eq } from "drizzle-orm";
import { DEFAULT_MODEL, MAX_TOKENS, TEMPERATURE } from "../../../shared/constants.js";
import type { UserSettings } from "../../../shared/contracts/settings.js";
import type { Db } from "../../db/client.js";
import { userSettings } from "../../db/schema/index.js";

const columns = {
  defaultModel: userSettings.defaultModel,
  temperature: userSettings.temperature,
  maxTokens: userSettings.maxTokens,
  saveHistory: userSettings.saveHistory,
  markdownRendering: userSettings.markdownRendering,
};

const DEFAULTS: UserSettings = {
  defaultModel: DEFAULT_MODEL,
  temperature: TEMPERATURE.default.toFixed(1),
  maxTokens: MAX_TOKENS.default,
  saveHistory: true,
  markdownRendering: true,
};

// numeric(2,1) comes back as "0.7" from both drivers; normalise anyway ("1" vs "1.0").
const normalise = (row: UserSettings): UserSettings => ({ ...row, temperature: Number(row.temperature).toFixed(1) });

export async function getSettings(options: { db: Db; userId: number }): Promise<UserSettings> {
  const [row] = await options.db.select(columns).from(userSettings).where(eq(userSettings.userId, options.userId)).limit(1);
  return row ? normalise(row) : DEFAULTS;
}

/** Writes the one changed preference; creates the row with defaults on first write. */
export async function updateSetting(options: { db: Db; userId: number; change: Partial<UserSettings> }): Promise<UserSettings> {
  const { db, userId, change } = options;
  const [row] = await db
    .insert(userSettings)
    .values({ userId, ...change })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...change, updatedAt: new Date() } })
    .returning(columns);
  return normalise(row ?? DEFAULTS);
}
