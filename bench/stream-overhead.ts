/**
 * npm run bench:stream-overhead
 * Time to first token of a reply through the app (POST /api/chats/{id}/reply until the
 * first `delta` event) versus straight from the provider stand-in (its first content chunk),
 * STREAMS streams each, one at a time. Reports p50 and p99 of both and of the difference.
 * Database: PGlite in memory, or PostgreSQL with BENCH_DATABASE_URL / TEST_DATABASE_URL and BENCH_DB=postgres.
 */
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { testConfig } from "../tests/helpers/build-test-app.js";
import { FAKE_KEY } from "../tests/helpers/chat-setup.js";
import { adminWithOpenAiAt } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";

const STREAMS = Number(process.env.STREAMS ?? 200);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function firstChunkAfter(response: Promise<Response>, marker: string): Promise<number> {
  const started = performance.now();
  const res = await response;
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`no body: ${res.status}`);
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${marker}: ${text.slice(0, 300)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes(marker)) break;
  }
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

async function main() {
  const usePostgres = process.env.BENCH_DB === "postgres";
  const scratch = usePostgres ? await createScratchPostgres() : undefined;
  const database = await openDatabase(scratch ? { url: scratch.url } : {});
  // Chunks 50 ms apart: the first one is what is measured; the rest must not overlap the next stream.
  const fake = await startOpenAiCompatibleFake({ chunkDelayMs: 50 });
  const app = await buildApp({ config: testConfig(), database, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  try {
    const headers = await adminWithOpenAiAt(base, fake);

    const direct: number[] = [];
    const viaApp: number[] = [];
    for (let i = 0; i < STREAMS + 20; i++) {
      const providerBody = JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: `hello ${i}` }] });
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
        fetch(`${base}/api/chats/${chat.id}/reply`, { method: "POST", headers, body: JSON.stringify({ content: `hello ${i}` }) }),
        '"type":"delta"',
      );
      // Let the reply finish before the next one, so streams do not overlap.
      await new Promise((r) => setTimeout(r, 250));
      if (i >= 20) {
        direct.push(d);
        viaApp.push(v);
      }
    }
    const added = viaApp.map((v, i) => v - (direct[i] ?? 0));
    const fmt = (n: number) => n.toFixed(2).padStart(7);
    console.log(`database: ${usePostgres ? "PostgreSQL" : "PGlite"}, ${STREAMS} streams (after 20 warm-up)`);
    console.log(`                       p50      p99   (ms, time to first token)`);
    console.log(`straight from stand-in ${fmt(percentile(direct, 50))}  ${fmt(percentile(direct, 99))}`);
    console.log(`through the app        ${fmt(percentile(viaApp, 50))}  ${fmt(percentile(viaApp, 99))}`);
    console.log(`added by the app       ${fmt(percentile(added, 50))}  ${fmt(percentile(added, 99))}`);
  } finally {
    await app.close();
    await fake.close();
    await database.close();
    await scratch?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
