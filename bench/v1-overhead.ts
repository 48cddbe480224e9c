/**
 * npm run bench:v1-overhead
 * The OpenAI-compatible endpoint's first-token overhead beside the chat route's (issue 35, decision 051): for each
 * stream, the time from the stand-in writing its first content chunk (`onFirstChunk`, same process as the client, so
 * one clock) to that text arriving at the client, through `POST /v1/chat/completions` (`stream: true`, a personal
 * token) and through `POST /api/chats/{id}/reply` (a session), interleaved one by one against the same stand-in and
 * the same server, the order swapped every other round. Reports p50 and p90 of both; target: /v1 within 1 ms p50 of the
 * chat route. The server runs compiled as `npm start` runs it (as bench/stream-overhead.ts). Database: PGlite (a new
 * folder), or PostgreSQL with BENCH_DB=postgres and BENCH_DATABASE_URL / TEST_DATABASE_URL. STREAMS (default 100,
 * after 20 warm-up rounds), FIRST_TOKEN_MS (the stand-in's first-token delay, default "0,200").
 */
import { lastUserText } from "../tests/fakes/fake-behaviour.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { FAKE_KEY } from "../tests/helpers/chat-setup.js";
import { adminWithOpenAiAt, cookieFetch, pointSpawnedOpenAiAt } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { startCompiledServer } from "./compiled-server.js";
import { arrivalOf } from "./first-chunk.js";
import { percentile } from "./stats.js";

const STREAMS = Number(process.env.STREAMS ?? 100);
const WARM_UP = 20;
const CASES = (process.env.FIRST_TOKEN_MS ?? "0,200").split(",").map(Number);
const TARGET_P50_MS = 1;

type Route = "chat" | "v1";

/** When (this process's `performance.now()`) the stand-in wrote the first content chunk of each marked request. */
const writtenAt = new Map<string, number>();

/** Three chunks of three words, so the first token is not also the answer's end. */
const messageFor = (marker: string) => `${marker} a first token and more`;

/** One stream through `route`: the ms from the stand-in's first chunk to its text at the client. */
async function oneStream(route: Route, marker: string, base: string, session: Record<string, string>, token: string): Promise<number> {
  let arrived: number;
  if (route === "chat") {
    const chat = (await (await fetch(`${base}/api/chats`, { method: "POST", headers: session, body: "{}" })).json()) as { id: number };
    arrived = await arrivalOf(
      fetch(`${base}/api/chats/${chat.id}/reply`, {
        method: "POST",
        headers: session,
        body: JSON.stringify({ content: messageFor(marker) }),
      }),
      '"type":"delta"',
    );
  } else {
    arrived = await arrivalOf(
      fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ model: "openai/fake-model", stream: true, messages: [{ role: "user", content: messageFor(marker) }] }),
      }),
      '"content":"',
    );
  }
  const written = writtenAt.get(marker);
  if (written === undefined) throw new Error(`the stand-in saw no first chunk for ${marker}`);
  writtenAt.delete(marker);
  // Let the answer finish before the next one, so streams never overlap.
  await new Promise((resolve) => setTimeout(resolve, 250));
  return arrived - written;
}

async function main() {
  const usePostgres = process.env.BENCH_DB === "postgres";
  const scratch = usePostgres ? await createScratchPostgres() : undefined;
  const server = await startCompiledServer("v1-overhead", scratch?.url);
  const { base } = server;
  const fmt = (n: number) => n.toFixed(2).padStart(7);
  let missed = false;
  let session: Record<string, string> | undefined;
  let token = "";
  try {
    for (const firstTokenMs of CASES) {
      const fake: FakeProvider = await startOpenAiCompatibleFake({
        chunkDelayMs: 50,
        firstChunkDelayMs: firstTokenMs,
        onFirstChunk: (body, times) => {
          const marker = /^(r\d+-(?:chat|v1))\b/.exec(lastUserText((body as { messages?: [] }).messages ?? []))?.[1];
          if (marker) writtenAt.set(marker, times.writtenAt);
        },
      });
      try {
        if (session) {
          const admin = cookieFetch();
          admin.cookie = session.cookie ?? "";
          await pointSpawnedOpenAiAt(admin, base, fake, FAKE_KEY);
        } else {
          session = await adminWithOpenAiAt(base, fake);
          const made = await fetch(`${base}/api/tokens`, {
            method: "POST",
            headers: session,
            body: JSON.stringify({ name: "bench", expiresInDays: 1, scopes: ["chat"] }),
          });
          if (made.status !== 201) throw new Error(`making a token: ${made.status} ${await made.text()}`);
          token = ((await made.json()) as { token: string }).token;
        }
        const added: Record<Route, number[]> = { chat: [], v1: [] };
        for (let i = 0; i < STREAMS + WARM_UP; i++) {
          const order: Route[] = i % 2 === 0 ? ["chat", "v1"] : ["v1", "chat"];
          for (const route of order) {
            const ms = await oneStream(route, `r${i}-${route}`, base, session, token);
            if (i >= WARM_UP) added[route].push(ms);
          }
        }
        const [chat50, v150] = [percentile(added.chat, 50), percentile(added.v1, 50)];
        const met = v150 - chat50 <= TARGET_P50_MS;
        missed ||= !met;
        console.log(
          `\ncompiled server, database: ${usePostgres ? "PostgreSQL" : "PGlite"}, stand-in's first token after ${firstTokenMs} ms, ${STREAMS} streams each, interleaved (after ${WARM_UP} warm-up rounds)`,
        );
        console.log("first chunk written by the stand-in → its text at the client (ms)");
        console.log("                                p50      p90");
        console.log(`POST /api/chats/{id}/reply  ${fmt(chat50)}  ${fmt(percentile(added.chat, 90))}`);
        console.log(`POST /v1/chat/completions   ${fmt(v150)}  ${fmt(percentile(added.v1, 90))}`);
        console.log(`/v1 minus chat (p50)        ${fmt(v150 - chat50)}   target ≤ ${TARGET_P50_MS} ms: ${met ? "met" : "MISSED"}`);
      } finally {
        await fake.close();
      }
    }
  } finally {
    await server.stop();
    await scratch?.drop();
  }
  if (missed && process.env.BENCH_STRICT === "1") process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
