import { asc, eq, sql } from "drizzle-orm";
import { PLAN_TYPES, type PlanType } from "../../../shared/constants.js";
import {
  type AdminPlatformSettings,
  DEFAULT_MODEL_UNAVAILABLE,
  PLATFORM_SETTINGS_FIELDS,
  type PlatformSettingsPatch,
  SETTINGS_EMAIL_INVALID,
  SMTP_HOST_REQUIRED,
  SMTP_PASS_REQUIRED,
  SMTP_USER_REQUIRED,
} from "../../../shared/contracts/platform-settings.js";
import { defaultModelInForce, offersModel } from "../../../shared/model-choice.js";
import type { Db } from "../../db/client.js";
import { platformSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { listChatPlatforms } from "../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { type EffectivePlatformSettings, readPlatformSettings } from "./reader.js";
import { assertStoredPasswordStaysHome } from "./stored-smtp-password.js";

// Serialises writers of the one settings row, so two first saves cannot create two rows.
const SETTINGS_WRITE_LOCK = 727_021;

/**
 * Every setting; of the SMTP password only whether one is stored. The default model is the one in force: the saved one,
 * or while no usable platform offers it, the one chats use in its place (decision 061).
 */
async function toAdminSettings(
  settings: EffectivePlatformSettings,
  options: { db: Db; deps: PlatformDeps; who: Who },
): Promise<AdminPlatformSettings> {
  const usable = await listChatPlatforms(options);
  const defaultModel = defaultModelInForce(settings.defaultModel, usable);
  return {
    platformName: settings.platformName,
    defaultModel: defaultModel.value,
    defaultModelFollows: defaultModel.follows,
    allowRegistration: settings.allowRegistration,
    enableHistory: settings.enableHistory,
    enableModelSelection: settings.enableModelSelection,
    smtpHost: settings.smtpHost,
    smtpPort: settings.smtpPort,
    smtpSecure: settings.smtpSecure,
    smtpUser: settings.smtpUser,
    smtpPassSet: !!settings.smtpPassEncrypted,
    smtpFromEmail: settings.smtpFromEmail,
    smtpFromName: settings.smtpFromName,
    supportEmail: settings.supportEmail,
    toolMaxSteps: settings.toolMaxSteps,
    toolCallTimeoutSeconds: settings.toolCallTimeoutSeconds,
    apiTokenPlans: settings.apiTokenPlans.filter((plan): plan is PlanType => (PLAN_TYPES as readonly string[]).includes(plan)),
    updatedAt: settings.updatedAt ? settings.updatedAt.toISOString() : null,
  };
}

export async function getAdminPlatformSettings(options: { db: Db; deps: PlatformDeps; who: Who }): Promise<AdminPlatformSettings> {
  return toAdminSettings(await readPlatformSettings(options.db), options);
}

/**
 * A new default model must be offered by an AI platform that can answer now: "slug" (its own default) or
 * "slug/model" (one of its models). The value already stored is accepted as is, so the other settings can
 * be saved while no platform is set up yet; chats then fall back as `chooseModel` does.
 */
async function assertChoosable(options: { db: Db; deps: PlatformDeps; who: Who; value: string }): Promise<void> {
  const usable = await listChatPlatforms({ db: options.db, deps: options.deps, who: options.who });
  if (!offersModel(options.value, usable))
    throw new AppError("BAD_REQUEST", DEFAULT_MODEL_UNAVAILABLE, { errors: { defaultModel: DEFAULT_MODEL_UNAVAILABLE } });
}

const SMTP_KEYS = ["smtpHost", "smtpPort", "smtpSecure", "smtpUser", "smtpPass", "smtpFromEmail", "smtpFromName"] as const;

/**
 * The SMTP part of a PATCH. The password is stored sealed (AES-256-GCM, like provider keys); a blank one
 * keeps the stored one. Once saved, the SMTP settings are complete: host, username, a password and a from
 * email, each sent now or already stored (the contract's messages, under the field's name).
 */
async function smtpChange(options: {
  db: Db;
  deps: PlatformDeps;
  input: PlatformSettingsPatch;
}): Promise<Partial<typeof platformSettings.$inferInsert>> {
  const { input } = options;
  const current = await readPlatformSettings(options.db);
  const change: Partial<typeof platformSettings.$inferInsert> = {};
  if (input.smtpHost !== undefined) change.smtpHost = input.smtpHost;
  if (input.smtpPort !== undefined) change.smtpPort = input.smtpPort;
  if (input.smtpSecure !== undefined) change.smtpSecure = input.smtpSecure;
  if (input.smtpUser !== undefined) change.smtpUser = input.smtpUser;
  if (input.smtpFromEmail !== undefined) change.smtpFromEmail = input.smtpFromEmail;
  if (input.smtpFromName !== undefined) change.smtpFromName = input.smtpFromName || null;
  if (input.smtpPass) change.smtpPassEncrypted = options.deps.secrets.seal(input.smtpPass);
  else if (current.smtpPassEncrypted) assertStoredPasswordStaysHome(current, input);
  const errors: Record<string, string> = {};
  if (!(change.smtpHost ?? current.smtpHost)) errors.smtpHost = SMTP_HOST_REQUIRED;
  if (!(change.smtpUser ?? current.smtpUser)) errors.smtpUser = SMTP_USER_REQUIRED;
  if (!(change.smtpPassEncrypted ?? current.smtpPassEncrypted)) errors.smtpPass = SMTP_PASS_REQUIRED;
  if (!(change.smtpFromEmail ?? current.smtpFromEmail)) errors.smtpFromEmail = SETTINGS_EMAIL_INVALID;
  const first = Object.values(errors)[0];
  if (first) throw new AppError("BAD_REQUEST", first, { errors });
  return change;
}

/** PATCH /api/admin/platform-settings: the fields sent change; the row is created by the first save. */
export async function updatePlatformSettings(options: {
  db: Db;
  deps: PlatformDeps;
  who: Who;
  input: PlatformSettingsPatch;
}): Promise<AdminPlatformSettings> {
  const { db, input } = options;
  const change: Partial<typeof platformSettings.$inferInsert> = {};
  for (const key of PLATFORM_SETTINGS_FIELDS) {
    if (input[key] !== undefined) Object.assign(change, { [key]: input[key] });
  }
  if (SMTP_KEYS.some((key) => input[key] !== undefined)) Object.assign(change, await smtpChange({ ...options, input }));
  if (Object.keys(change).length === 0) return getAdminPlatformSettings(options);
  if (change.defaultModel !== undefined) {
    const current = await readPlatformSettings(db);
    if (change.defaultModel !== current.defaultModel) await assertChoosable({ ...options, value: change.defaultModel });
  }
  const saved = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_WRITE_LOCK})`);
    const [existing] = await tx.select({ id: platformSettings.id }).from(platformSettings).orderBy(asc(platformSettings.id)).limit(1);
    const values = { ...change, updatedAt: new Date() };
    const [row] = existing
      ? await tx.update(platformSettings).set(values).where(eq(platformSettings.id, existing.id)).returning()
      : await tx.insert(platformSettings).values(values).returning();
    return row;
  });
  if (!saved) throw new Error("the settings row was not written");
  const { id: _id, ...settings } = saved;
  return toAdminSettings({ ...settings, stored: true }, options);
}
