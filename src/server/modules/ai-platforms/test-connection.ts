import type { PlatformTestResult } from "../../../shared/contracts/ai-platforms.js";
import { completeText } from "../../ai/generate.js";
import { languageModelFor } from "../../ai/language-model.js";
import { toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { findPlatformRow } from "./ai-platforms-service.js";
import { accessFor, defaultModelOf, type PlatformDeps } from "./platform-view.js";

/**
 * A tiny real call (a few tokens) that proves the key, base URL and default model work. A test that fails
 * answers 422 with the provider's reason: the settings tested do not work (a test is never a 5xx, issue 14).
 */
export async function testPlatformConnection(options: { db: Db; deps: PlatformDeps; who: Who; id: number }): Promise<PlatformTestResult> {
  const row = await findPlatformRow(options.db, { id: options.id });
  if (!row) throw new AppError("NOT_FOUND", "AI platform not found");
  const model = defaultModelOf(row);
  if (!model) throw new AppError("BAD_REQUEST", "Add at least one model before testing the connection.");
  const access = accessFor(row, options.deps);
  if (!access.apiKey && !(row.kind === "openai-compatible" && row.baseUrl)) {
    throw new AppError("BAD_REQUEST", "Add an API key before testing the connection.");
  }
  const started = performance.now();
  try {
    const text = await completeText({
      model: languageModelFor(access, model),
      prompt: "Reply with the single word: pong",
      maxOutputTokens: 16,
      maxRetries: 0,
      timeout: 20_000,
      // An administrator's test of the platform, not a user's call: counted against no allowance.
      spend: null,
    });
    return { ok: true, model, latencyMs: Math.round(performance.now() - started), reply: text.slice(0, 200) };
  } catch (error) {
    const failure = toProviderError(error, row.name, model);
    throw new AppError("UNPROCESSABLE", failure.code === "UNAVAILABLE" ? unreachable(row) : failure.message);
  }
}

/** Not reached: what the admin testing it can check (the chat's own message only says to try again later). */
function unreachable(row: { name: string; baseUrl: string | null }): string {
  return row.baseUrl
    ? `${row.name} could not be reached at ${row.baseUrl}. Check the Base URL and that the server there is running, then test again.`
    : `${row.name} could not be reached. Check that this server can reach the internet, then test again.`;
}
