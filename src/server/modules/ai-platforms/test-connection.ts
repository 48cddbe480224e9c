import { eq } from "drizzle-orm";
import type { PlatformTestResult } from "../../../shared/contracts/ai-platforms.js";
import { sliceWhole } from "../../../shared/cut-text.js";
import { completeText } from "../../ai/generate.js";
import { languageModelFor } from "../../ai/language-model.js";
import { type ProviderFailureLog, toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import { aiPlatforms } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { findPlatformRow } from "./ai-platforms-service.js";
import { accessFor, defaultModelOf, type PlatformDeps } from "./platform-view.js";

/**
 * A tiny real call (a few tokens) that proves the key, base URL and default model work. A test that fails
 * answers 422 with what failed, in words for the admin on the page where it is fixed (a test is never a 5xx,
 * issue 14). Its result (passed or not, when, the message) is kept on the platform, for its card (issue 29).
 */
export async function testPlatformConnection(options: {
  db: Db;
  deps: PlatformDeps;
  who: Who;
  id: number;
  log: ProviderFailureLog;
}): Promise<PlatformTestResult> {
  const row = await findPlatformRow(options.db, { id: options.id });
  if (!row) throw new AppError("NOT_FOUND", "AI platform not found");
  const model = defaultModelOf(row);
  if (!model) throw new AppError("BAD_REQUEST", "Add at least one model before testing the connection.");
  const access = accessFor(row, options.deps);
  if (!access.apiKey && !(row.kind === "openai-compatible" && row.baseUrl)) {
    throw new AppError("BAD_REQUEST", "Add an API key before testing the connection.");
  }
  const started = performance.now();
  let text: string;
  try {
    text = await completeText({
      model: languageModelFor(access, model),
      prompt: "Reply with the single word: pong",
      maxOutputTokens: 16,
      maxRetries: 0,
      timeout: 20_000,
      // An administrator's test of the platform, not a user's call: counted against no allowance.
      spend: null,
    });
  } catch (error) {
    const failure = toProviderError(error, { platform: row, model, log: options.log, connectionTest: true });
    await keepResult(options, false, failure.message);
    throw failure;
  }
  const latencyMs = Math.round(performance.now() - started);
  await keepResult(options, true, `${model} answered in ${latencyMs} ms.`);
  return { ok: true, model, latencyMs, reply: sliceWhole(text, 200) };
}

async function keepResult(options: { db: Db; deps: PlatformDeps; id: number }, ok: boolean, message: string): Promise<void> {
  await options.db
    .update(aiPlatforms)
    .set({ lastTestOk: ok, lastTestAt: new Date(), lastTestMessage: sliceWhole(message, 500) })
    .where(eq(aiPlatforms.id, options.id));
}
