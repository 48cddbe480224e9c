import { eq } from "drizzle-orm";
import { DEFAULT_MODEL, MAX_TOKENS, TEMPERATURE } from "../../../shared/constants.js";
import { temperatureText } from "../../../shared/contracts/generation-params.js";
import type { SettingsChange, UserSettings } from "../../../shared/contracts/settings.js";
import { parseModelValue } from "../../../shared/model-choice.js";
import type { Db } from "../../db/client.js";
import { userSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { listChatPlatforms } from "../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";

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

/** The settings call sends the temperature as text ("0.7"); it is stored and used as a number. */
const toSettings = (row: SettingsRow): UserSettings => ({ ...row, temperature: temperatureText(row.temperature) });

/**
 * What a reply takes from the preferences, as columns the read of its chat carries (left-joined on the chat's
 * owner), so a reply reads everything it needs in one round trip (issue 15). `replySettingsOf` reads them back.
 */
export const replySettingColumns = { temperature: userSettings.temperature, maxTokens: userSettings.maxTokens };

/** The reply's preferences from `replySettingColumns` as read: the defaults before the first change (no row). */
export function replySettingsOf(read: { temperature: number | null; maxTokens: number | null } | null): {
  temperature: number;
  maxTokens: number;
} {
  return { temperature: read?.temperature ?? DEFAULTS.temperature, maxTokens: read?.maxTokens ?? DEFAULTS.maxTokens };
}

/** The stored preferences, or the defaults before the first change: what a reply starts from. */
export async function readSettings(db: Db, userId: number): Promise<SettingsRow> {
  const [row] = await db.select(columns).from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row ?? DEFAULTS;
}

export async function getSettings(options: { db: Db; who: Who }): Promise<UserSettings> {
  return toSettings(await readSettings(options.db, options.who.id));
}

/**
 * A default model must be one the model pickers offer this user: a usable platform ("slug", its own default)
 * or one of the models it lets this user pick ("slug/model"). Anything else would make new chats silently
 * start on another model.
 */
async function checkDefaultModel(options: { db: Db; who: Who; platformDeps: PlatformDeps }, value: string): Promise<void> {
  const wanted = parseModelValue(value);
  const platforms = await listChatPlatforms({ db: options.db, deps: options.platformDeps, who: options.who });
  const platform = platforms.find((p) => p.slug === wanted.slug);
  const offered = platform && (wanted.model === null || platform.models.includes(wanted.model) || platform.defaultModel === wanted.model);
  if (offered) return;
  throw new AppError(
    "BAD_REQUEST",
    platform
      ? `The model ${wanted.model} is not available on ${platform.name}: choose one of the models offered.`
      : "That AI platform is not available (not set up, or turned off): choose one of the models offered.",
  );
}

/** Writes the one changed preference; creates the row with defaults on first write. */
export async function updateSetting(options: {
  db: Db;
  who: Who;
  platformDeps: PlatformDeps;
  change: SettingsChange;
}): Promise<UserSettings> {
  const { db, change } = options;
  const userId = options.who.id;
  if (change.defaultModel !== undefined) await checkDefaultModel(options, change.defaultModel);
  const [row] = await db
    .insert(userSettings)
    .values({ userId, ...change })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...change, updatedAt: new Date() } })
    .returning(columns);
  return toSettings(row ?? DEFAULTS);
}
