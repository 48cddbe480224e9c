import { eq } from "drizzle-orm";
import { DEFAULT_MODEL, MAX_TOKENS, TEMPERATURE } from "../../../shared/constants.js";
import { temperatureText } from "../../../shared/contracts/generation-params.js";
import type { SettingsChange, UserSettings } from "../../../shared/contracts/settings.js";
import type { Db } from "../../db/client.js";
import { userSettings } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";

const columns = {
  defaultModel: userSettings.defaultModel,
  temperature: userSettings.temperature,
  maxTokens: userSettings.maxTokens,
  saveHistory: userSettings.saveHistory,
  markdownRendering: userSettings.markdownRendering,
};

type SettingsRow = Omit<UserSettings, "temperature"> & { temperature: number };

const DEFAULTS: SettingsRow = {
  defaultModel: DEFAULT_MODEL,
  temperature: TEMPERATURE.default,
  maxTokens: MAX_TOKENS.default,
  saveHistory: true,
  markdownRendering: true,
};

/** Spec 000 sends the temperature as text ("0.7"); it is stored and used as a number. */
const toSettings = (row: SettingsRow): UserSettings => ({ ...row, temperature: temperatureText(row.temperature) });

/** The stored preferences, or the defaults before the first change: what a reply starts from. */
export async function readSettings(db: Db, userId: number): Promise<SettingsRow> {
  const [row] = await db.select(columns).from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row ?? DEFAULTS;
}

export async function getSettings(options: { db: Db; who: Who }): Promise<UserSettings> {
  return toSettings(await readSettings(options.db, options.who.id));
}

/** Writes the one changed preference; creates the row with defaults on first write. */
export async function updateSetting(options: { db: Db; who: Who; change: SettingsChange }): Promise<UserSettings> {
  const { db, change } = options;
  const userId = options.who.id;
  const [row] = await db
    .insert(userSettings)
    .values({ userId, ...change })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...change, updatedAt: new Date() } })
    .returning(columns);
  return toSettings(row ?? DEFAULTS);
}
