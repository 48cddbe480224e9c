import { expect } from "vitest";
import { aiPlatformsApi } from "../../../src/shared/contracts/ai-platforms.js";
import type { FakeProvider } from "../../fakes/openai-compatible-fake.js";
import { CookieClient } from "../../helpers/build-test-app.js";
import { type Harness, registerViaApi, uniqueAccount } from "./harness.js";

/**
 * Registers the first account (the admin, on an empty database), signs it in through
 * the API and points the seeded OpenAI platform at the provider stand-in.
 */
export async function adminWithStandIn(
  h: Harness,
  fake: FakeProvider,
  settings: { models: string[]; freeModels: string[]; defaultModel: string },
) {
  const admin = await registerViaApi(h, uniqueAccount("admin"));
  const adminApi = new CookieClient(h.app);
  expect((await adminApi.post("/api/login", { username: admin.username, password: admin.password })).statusCode).toBe(200);
  await pointOpenAiAt(adminApi, fake, settings);
  return adminApi;
}

/** As an admin (`adminApi`), points the seeded OpenAI platform at the stand-in with these models. */
export async function pointOpenAiAt(
  adminApi: CookieClient,
  fake: FakeProvider,
  settings: { models: string[]; freeModels: string[]; defaultModel: string },
) {
  const platforms = await adminApi.ok(aiPlatformsApi.list, {});
  const openai = platforms.find((p) => p.slug === "openai");
  if (!openai) throw new Error("the openai platform is not seeded");
  await adminApi.ok(aiPlatformsApi.update, {
    params: { id: openai.id },
    body: { apiKey: "sk-test-valid-key-123456", baseUrl: fake.url, settings },
  });
}
