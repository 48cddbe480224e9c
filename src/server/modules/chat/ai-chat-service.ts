import type { AiChatInput } from "../../../shared/contracts/chat.js";
import { completeText } from "../../ai/generate.js";
import { type ProviderFailureLog, toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { resolveModel } from "../ai-platforms/resolve-platform.js";
import { adminChosenModel } from "../platform-settings/forced-model.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { findOwnChat } from "./chat-service.js";
import { personaFor, replyParams, userReplyDefaults } from "./persona.js";

/** POST /api/ai/chat: one non-streamed answer to the messages sent. */
export async function answerOnce(options: {
  db: Db;
  who: Who;
  platformDeps: PlatformDeps;
  input: AiChatInput;
  timeoutMs: number;
  log: ProviderFailureLog;
}) {
  const { db, who, input } = options;
  const userId = who.id;
  const chat = input.chatId ? await findOwnChat(db, userId, input.chatId) : undefined;
  const persona = await personaFor(db, who, input.personalityId ?? chat?.personalityId);
  // Model selection off (Platform Settings): the admin's model answers, whatever was sent.
  const forced = await adminChosenModel({ db, deps: options.platformDeps, who, settings: await readPlatformSettings(db) });
  const resolved = await resolveModel({
    db,
    deps: options.platformDeps,
    who,
    slug: forced ? forced.slug : input.platformSlug,
    modelId: forced ? forced.model : (input.model ?? (chat && chat.aiPlatform === input.platformSlug ? chat.model : null)),
  });
  const params = replyParams(await userReplyDefaults(db, userId), persona, resolved.platform.maxTokens);
  try {
    // Not a stored message, but refused like every AI call once an allowance is spent; its hold and what it spends
    // count (decision 028).
    const content = await completeText({
      model: resolved.model,
      system: params.system,
      messages: input.messages,
      temperature: params.temperature,
      maxOutputTokens: params.maxTokens,
      maxRetries: 1,
      timeout: options.timeoutMs,
      spend: { allowance: options.platformDeps.allowance, userId },
    });
    return { content };
  } catch (error) {
    throw toProviderError(error, { platform: resolved.platform, model: resolved.modelId, log: options.log });
  }
}
