/**
 * The official `openai` client against the app's OpenAI-compatible endpoint (decisions 051, 054): the app listening
 * on 127.0.0.1, a user with a personal token and the client holding it, and what the `/v1` tests read back.
 */
import { sql } from "drizzle-orm";
import OpenAI from "openai";
import { expect } from "vitest";
import { type CookieClient, registerAndSignIn, type TestApp } from "./build-test-app.js";

/** Listens on a free port of 127.0.0.1 and answers the origin the client is pointed at. */
export async function listenLocally(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** A personal token of the signed-in `client`, with `scopes`. */
export async function makeToken(client: CookieClient, scopes: string[]) {
  const response = await client.post("/api/tokens", { name: "script", expiresInDays: 30, scopes });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; token: string };
}

/** A new user of the free plan with a token, and the official client holding it (no retries). */
export async function scriptUser(t: TestApp, origin: string, scopes = ["chat", "models"]) {
  const { client, user } = await registerAndSignIn(t.app);
  const { token, id } = await makeToken(client, scopes);
  const openai = new OpenAI({ apiKey: token, baseURL: `${origin}/v1`, maxRetries: 0 });
  return { client, user, token, tokenId: id, openai };
}

/** The user's holds not yet settled. */
export const holdsOf = async (t: TestApp, userId: number) =>
  Number((await t.database.db.execute(sql`select count(*)::int as n from ai_holds where user_id = ${userId}`)).rows[0]?.n ?? 0);

/** The tokens the signed-in user spent this month, as the usage meter reads them. */
export const usedTokens = async (client: CookieClient) =>
  ((await client.get("/api/usage")).json() as { tokens: { used: number } }).tokens.used;

/** The failure a call ends with (the client's error class), or a test failure when it succeeds. */
export async function failureOf(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}
