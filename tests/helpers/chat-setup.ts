import type { FastifyInstance } from "fastify";
import type { StreamEvent } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { type CookieClient, registerAndSignIn } from "./build-test-app.js";
import { parseStreamEvent } from "./sse-reader.js";

export const FAKE_KEY = "sk-test-valid-key-123456";

/** Points a seeded platform at a stand-in, as an admin would on the AI Chat Settings page. */
export async function pointPlatformAt(admin: CookieClient, slug: string, fake: FakeProvider, extra: Record<string, unknown> = {}) {
  const list = await admin.get("/api/ai-platforms");
  if (list.statusCode !== 200) throw new Error(`list platforms: ${list.statusCode} ${list.body}`);
  const platform = (list.json() as { id: number; slug: string }[]).find((p) => p.slug === slug);
  if (!platform) throw new Error(`no platform ${slug}`);
  const res = await admin.patch(`/api/admin/ai-platforms/${platform.id}`, {
    apiKey: FAKE_KEY,
    baseUrl: fake.url,
    // Free-tier, so the free-plan test users may chat with them (plans have their own tests).
    settings: { models: ["fake-model", "missing-model"], defaultModel: "fake-model", freeModels: ["fake-model", "missing-model"] },
    ...extra,
  });
  if (res.statusCode !== 200) throw new Error(`patch platform: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number };
}

/** Sets the embedding model, as an admin would (retrieval by meaning as well as by words, where pgvector is). */
export async function useEmbeddingModel(admin: CookieClient, platformSlug = "openai", model = "text-embedding-3-small") {
  const res = await admin.request({ method: "PUT", url: "/api/admin/embedding-settings", payload: { platformSlug, model } });
  if (res.statusCode !== 200) throw new Error(`embedding settings: ${res.statusCode} ${res.body}`);
}

/** The first account of a fresh database is the admin. */
export async function adminAndUser(app: FastifyInstance) {
  const admin = await registerAndSignIn(app);
  if (admin.user.role !== "admin") throw new Error("the first account should be admin");
  const user = await registerAndSignIn(app);
  return { admin: admin.client, user: user.client, userId: user.user.id };
}

/** Parses a finished SSE body into its events, each with the contract's schema (`parseStreamEvent`). */
export function parseEvents(body: string): StreamEvent[] {
  return body
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => !!line)
    .map((line) => parseStreamEvent(line.slice(6)));
}

export function textOf(events: StreamEvent[]): string {
  return events.map((e) => (e.type === "delta" ? e.text : "")).join("");
}

export async function newChat(client: CookieClient, body: Record<string, unknown> = {}) {
  const res = await client.post("/api/chats", body);
  if (res.statusCode !== 201) throw new Error(`create chat: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; title: string };
}

/** Sets the embedding model (by default the stand-in's `text-embedding-3-small` on the platform `slug`), as an admin would. */
export async function setEmbeddingModel(admin: CookieClient, slug = "openai", model = "text-embedding-3-small") {
  const res = await admin.request({
    method: "PUT",
    url: "/api/admin/embedding-settings",
    payload: { platformSlug: slug, model },
  });
  if (res.statusCode !== 200) throw new Error(`embedding settings: ${res.statusCode} ${res.body}`);
}
