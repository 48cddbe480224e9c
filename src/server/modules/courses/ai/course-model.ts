import type { z } from "zod";
import { chooseModel } from "../../../../shared/model-choice.js";
import type { AiAllowance } from "../../../ai/allowance.js";
import { completeObject } from "../../../ai/generate.js";
import { type ProviderFailureLog, toProviderError } from "../../../ai/provider-error.js";
import type { Db } from "../../../db/client.js";
import { listChatPlatforms } from "../../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { noPlatformError, type ResolvedModel, resolveModel } from "../../ai-platforms/resolve-platform.js";
import type { Entitled } from "../../entitlements/entitlements.js";
import { readSettings } from "../../settings/settings-service.js";

/**
 * The model course generation uses: chosen as a new chat's is (shared/model-choice.ts) from the user's
 * Default model preference; null when no platform can answer them (the caller refuses, or falls back to
 * the template).
 */
export async function courseModelFor(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel | null> {
  const [settings, usable] = await Promise.all([readSettings(db, who.id), listChatPlatforms({ db, deps, who })]);
  const choice = chooseModel(settings.defaultModel, usable);
  // A platform whose every model is locked for this user cannot write a course: no model, like no platform.
  if (!choice?.model) return null;
  return resolveModel({ db, deps, who, slug: choice.aiPlatform, modelId: choice.model });
}

/** The same, refusing with the chat's 503 when no platform can answer. */
export async function requireCourseModel(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel> {
  const model = await courseModelFor(db, deps, who);
  if (!model) throw noPlatformError();
  return model;
}

/**
 * One structured answer from a resolved model for `userId`, spent from their allowance (refused with 429 once it is
 * spent). An answer that does not fit `schema` (or that `accept` turns down: it returns null) is asked for again once,
 * each call claimed, held and settled on its own (decision 059); null when the second is no better. A provider failure
 * is thrown as the clear `AppError` of `toProviderError`. Course outlines, quiz drafts and AI grading use it.
 */
export async function askObject<T, R = T>(options: {
  model: ResolvedModel;
  system: string;
  prompt: string;
  schema: z.ZodType<T>;
  name: string;
  maxOutputTokens: number;
  timeoutMs: number;
  spend: { allowance: AiAllowance; userId: number };
  log: ProviderFailureLog;
  accept?: (answer: T) => R | null;
}): Promise<R | null> {
  const { model } = options;
  const accept = options.accept ?? ((answer: T) => answer as unknown as R);
  for (let attempt = 1; attempt <= 2; attempt++) {
    let answer: T | null;
    try {
      answer = await completeObject({
        model: model.model,
        system: options.system,
        prompt: options.prompt,
        schema: options.schema,
        name: options.name,
        maxOutputTokens: options.maxOutputTokens,
        maxRetries: 1,
        timeout: options.timeoutMs,
        spend: options.spend,
      });
    } catch (error) {
      throw toProviderError(error, { platform: model.platform, model: model.modelId, log: options.log });
    }
    const accepted = answer === null ? null : accept(answer);
    if (accepted !== null) return accepted;
  }
  return null;
}
