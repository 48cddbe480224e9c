import type { Db } from "../../db/client.js";
import { findGlobalPrompt, PROMPT_KEYS } from "../ai-prompts/ai-prompts-service.js";
import { type Entitled, entitlements } from "../entitlements/entitlements.js";
import { findOwnPersonality, type PersonalityRow } from "../personalities/personalities-service.js";
import { readSettings } from "../settings/settings-service.js";

/**
 * The personality a reply speaks with: the caller's own (404 otherwise) and only
 * on a plan that includes personalities (403 otherwise). `known`: the row already read with the chat
 * (reply-service), which spares the read; when that found none of the caller's, the read says 404.
 */
export async function personaFor(
  db: Db,
  who: Entitled & { id: number },
  personalityId: number | null | undefined,
  known?: PersonalityRow | null,
): Promise<PersonalityRow | null> {
  if (!personalityId) return null;
  entitlements.assertCanUsePersonalities(who);
  return known?.id === personalityId ? known : findOwnPersonality(db, who.id, personalityId);
}

/** The global `chat-system` prompt first, then the personality's tone and instructions. */
export function composeSystemPrompt(globalPrompt: string | undefined, persona: PersonalityRow | null): string | undefined {
  const parts = [globalPrompt];
  if (persona) parts.push(`You are "${persona.name}". Tone: ${persona.tone}.\n\n${persona.instructions}`);
  const text = parts.filter(Boolean).join("\n\n");
  return text || undefined;
}

/** The user's preferences and the global `chat-system` prompt: what a reply starts from. */
export async function userReplyDefaults(db: Db, userId: number) {
  const [settings, system] = await Promise.all([readSettings(db, userId), findGlobalPrompt(db, PROMPT_KEYS.chatSystem)]);
  return { temperature: settings.temperature, maxTokens: settings.maxTokens, system };
}

/** A personality's parameters override the user's preferences for the chats that use it. */
export function replyParams(
  base: { temperature: number; maxTokens: number; system: string | undefined },
  persona: PersonalityRow | null,
  platformMaxTokens: number,
) {
  return {
    temperature: persona ? persona.temperature : base.temperature,
    maxTokens: Math.min(persona ? persona.maxTokens : base.maxTokens, platformMaxTokens),
    system: composeSystemPrompt(base.system, persona),
  };
}
