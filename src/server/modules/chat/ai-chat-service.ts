import { generateText } from "ai";
import type { AiChatBody } from "../../../shared/contracts/chat.js";
import { toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { resolveModel } from "../ai-platforms/resolve-platform.js";
import { findGlobalPrompt, PROMPT_KEYS } from "../ai-prompts/service.js";
import { getSettings } from "../settings/service.js";
import { findOwnChat } from "./service.js";

/** POST /api/ai/chat: one non-streamed answer to the messages sent (spec 000 section 7). */
export async function answerOnce(options: { db: Db; platformDeps: PlatformDeps; userId: number; input: AiChatBody; timeoutMs: number }) {
  const { db, userId, input } = options;
  const chat = input.chatId ? await findOwnChat(db, userId, input.chatId) : undefined;
  const resolved = await resolveModel({
    db,
    deps: options.platformDeps,
    slug: input.platformSlug,
    modelId: input.model ?? (chat && chat.aiPlatform === input.platformSlug ? chat.model : null),
  });
  const [settings, system] = await Promise.all([getSettings({ db, userId }), findGlobalPrompt(db, PROMPT_KEYS.chatSystem)]);
  try {
    const result = await generateText({
      model: resolved.model,
      instructions: system,
      messages: input.messages,
      temperature: Number(settings.temperature),
      maxOutputTokens: Math.min(settings.maxTokens, resolved.platform.maxTokens),
      maxRetries: 1,
      timeout: options.timeoutMs,
    });
    return { content: result.text };
  } catch (error) {
    throw toProviderError(error, resolved.platform.name, resolved.modelId);
  }
}
