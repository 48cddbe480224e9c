/**
 * npm run bench:stream-overhead
 * Time to first token of a reply through the app (POST /api/chats/{id}/reply until the
 * first `delta` event) versus straight from the provider stand-in (its first content chunk),
 * STREAMS streams each, one at a time. Reports p50 and p99 of both and of the difference, for a stand-in
 * that answers at once and for one whose first token comes after 200 ms (FIRST_TOKEN_MS), against issue 15's
 * targets: the app adds ≤ 3 ms p50 with the instant stand-in, and ≤ 1 ms p50 / ≤ 5 ms p99 with the 200 ms one.
 * Database: PGlite (a new folder), or PostgreSQL with BENCH_DATABASE_URL / TEST_DATABASE_URL and BENCH_DB=postgres.
 * The server runs the way `npm start` runs it, as its own process: compiled (scripts/build-server.ts), with the
 * `serve` script's flags; the client and the stand-in share this process. --in-process builds the app inside this
 * process through tsx instead (how this bench ran before issue 15's third session: the client, the stand-in and the
 * app then share one thread, and every step of each waits for the others). --cpu-prof DIR writes the server's CPU
 * profile into DIR (open it in Chrome's DevTools, or sum it with bench/cpu-profile-summary.ts).
 */
import { parseArgs } from "node:util";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { testConfig } from "../tests/helpers/build-test-app.js";
import { FAKE_KEY } from "../tests/helpers/chat-setup.js";
import { adminWithOpenAiAt, cookieFetch, pointSpawnedOpenAiAt } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { startCompiledServer } from "./compiled-server.js";
import { firstChunkAfter } from "./first-chunk.js";
import { percentile } from "./stats.js";

const { values: args } = parseArgs({ options: { "in-process": { type: "boolean", default: false }, "cpu-prof": { type: "string" } } });

const STREAMS = Number(process.env.STREAMS ?? 200);
const CASES = (process.env.FIRST_TOKEN_MS ?? "0,200").split(",").map(Number);
/** Issue 15's targets for the time the app adds, by the stand-in's time to first token. */
const targetFor = (firstTokenMs: number) => (firstTokenMs >= 200 ? { p50: 1, p99: 5 } : { p50: 3, p99: Number.POSITIVE_INFINITY });

/**
 * The stand-in echoes the message in chunks of three words: this one makes three, so the first token is not
 * also the reply's end (a real reply goes on; its end, stored in the same tick, would be measured too).
 */
const messageFor = (i: number) => `hello ${i}, a first token and more`;

async function measure(base: string, fake: FakeProvider, headers: Record<string, string>) {
  const direct: number[] = [];
  const viaApp: number[] = [];
  for (let i = 0; i < STREAMS + 20; i++) {
    const providerBody = JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: messageFor(i) }] });
    const d = await firstChunkAfter(
      fetch(`${fake.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${FAKE_KEY}` },
        body: providerBody,
      }),
      '"content":"',
    );
    const chat = (await (await fetch(`${base}/api/chats`, { method: "POST", headers, body: "{}" })).json()) as { id: number };
    const v = await firstChunkAfter(
      fetch(`${base}/api/chats/${chat.id}/reply`, { method: "POST", headers, body: JSON.stringify({ content: messageFor(i) }) }),
      '"type":"delta"',
    );
    // Let the reply finish before the next one, so streams do not overlap.
    await new Promise((r) => setTimeout(r, 250));
    if (i >= 20) {
      direct.push(d);
      viaApp.push(v);
    }
  }
  return { direct, viaApp, added: viaApp.map((v, i) => v - (direct[i] ?? 0)) };
}

/** The app under test at `base`, and how to stop it: its own compiled process, or (--in-process) inside this one. */
async function startApp(databaseUrl: string | undefined): Promise<{ base: string; stop: () => Promise<void> }> {
  if (args["in-process"]) {
    const database = await openDatabase(databaseUrl ? { url: databaseUrl } : {});
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const stop = async () => {
      await app.close();
      await database.close();
    };
    return { base, stop };
  }
  // --cpu-prof DIR: the server writes a V8 CPU profile (100 µs samples) into DIR when it stops.
  const profile = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${args["cpu-prof"]}`, "--cpu-prof-interval=100"] : [];
  return startCompiledServer("stream-overhead", databaseUrl, profile);
}

async function main() {
  const usePostgres = process.env.BENCH_DB === "postgres";
  const scratch = usePostgres ? await createScratchPostgres() : undefined;
  const app = await startApp(scratch?.url);
  const { base } = app;
  const fmt = (n: number) => n.toFixed(2).padStart(7);
  let missed = false;
  let headers: Record<string, string> | undefined;
  try {
    for (const firstTokenMs of CASES) {
      // Chunks 50 ms apart: the first one is what is measured; the rest must not overlap the next stream.
      const fake = await startOpenAiCompatibleFake({ chunkDelayMs: 50, firstChunkDelayMs: firstTokenMs });
      try {
        // The first case registers the admin; the next ones point its OpenAI platform at their own stand-in.
        if (headers) {
          const admin = cookieFetch();
          admin.cookie = headers.cookie ?? "";
          await pointSpawnedOpenAiAt(admin, base, fake, FAKE_KEY);
        } else headers = await adminWithOpenAiAt(base, fake);
        const { direct, viaApp, added } = await measure(base, fake, headers);
        const target = targetFor(firstTokenMs);
        const [p50, p99] = [percentile(added, 50), percentile(added, 99)];
        const met = p50 <= target.p50 && p99 <= target.p99;
        missed ||= !met;
        console.log(
          `\n${args["in-process"] ? "in-process (tsx)" : "compiled server"}, database: ${usePostgres ? "PostgreSQL" : "PGlite"}, stand-in's first token after ${firstTokenMs} ms, ${STREAMS} streams (after 20 warm-up)`,
        );
        console.log(`                       p50      p99   (ms, time to first token)`);
        console.log(`straight from stand-in ${fmt(percentile(direct, 50))}  ${fmt(percentile(direct, 99))}`);
        console.log(`through the app        ${fmt(percentile(viaApp, 50))}  ${fmt(percentile(viaApp, 99))}`);
        console.log(`added by the app       ${fmt(p50)}  ${fmt(p99)}`);
        const limits = Number.isFinite(target.p99) ? `≤ ${target.p50} ms p50, ≤ ${target.p99} ms p99` : `≤ ${target.p50} ms p50`;
        console.log(`target                 ${limits}: ${met ? "met" : "MISSED"}`);
      } finally {
        await fake.close();
      }
    }
  } finally {
    await app.stop();
    await scratch?.drop();
  }
  if (missed && process.env.BENCH_STRICT === "1") process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
