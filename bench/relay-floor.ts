/**
 * npm run bench:relay-floor
 * The floor under issue 15's time-to-first-token targets: what the least possible Node server in the middle
 * (bench/bare-relay.ts: receive, `fetch` the provider, write its bytes back; no sign-in, database or parsing)
 * adds to the time to first token, measured as bench/stream-overhead measures the app: STREAMS streams one at a
 * time, straight from the stand-in and then through the relay, 250 ms apart, for a stand-in that answers at once
 * and one whose first token comes after 200 ms (FIRST_TOKEN_MS). The relay runs as its own process, as the
 * compiled server does. What this prints is what any Node server adds on this machine before it does any work of
 * its own; the app's added time (bench:stream-overhead) cannot be lower.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { FAKE_KEY } from "../tests/helpers/chat-setup.js";
import { firstChunkAfter } from "./first-chunk.js";
import { percentile } from "./stats.js";

const STREAMS = Number(process.env.STREAMS ?? 200);
const CASES = (process.env.FIRST_TOKEN_MS ?? "0,200").split(",").map(Number);
const here = path.dirname(fileURLToPath(import.meta.url));

/** The relay as its own process (Node 24 strips its types), and its port once it listens. */
async function startRelay(target: string) {
  const child = spawn(process.execPath, [path.join(here, "bare-relay.ts")], {
    env: { ...process.env, RELAY_TARGET: target },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the relay exited: ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      const found = /listening (\d+)/.exec(String(chunk));
      if (found) resolve(Number(found[1]));
    });
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main() {
  const fmt = (n: number) => n.toFixed(2).padStart(7);
  for (const firstTokenMs of CASES) {
    const fake = await startOpenAiCompatibleFake({ chunkDelayMs: 50, firstChunkDelayMs: firstTokenMs });
    const relay = await startRelay(fake.url);
    try {
      const direct: number[] = [];
      const relayed: number[] = [];
      for (let i = 0; i < STREAMS + 20; i++) {
        const init = {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${FAKE_KEY}` },
          body: JSON.stringify({
            model: "fake-model",
            stream: true,
            messages: [{ role: "user", content: `hello ${i}, a first token and more` }],
          }),
        };
        const d = await firstChunkAfter(fetch(`${fake.url}/chat/completions`, init), '"content":"');
        const r = await firstChunkAfter(fetch(`${relay.url}/chat/completions`, init), '"content":"');
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (i >= 20) {
          direct.push(d);
          relayed.push(r);
        }
      }
      const added = relayed.map((r, i) => r - (direct[i] ?? 0));
      console.log(`\nbare Node relay, stand-in's first token after ${firstTokenMs} ms, ${STREAMS} streams (after 20 warm-up)`);
      console.log(`                       p50      p99   (ms, time to first token)`);
      console.log(`straight from stand-in ${fmt(percentile(direct, 50))}  ${fmt(percentile(direct, 99))}`);
      console.log(`through the relay      ${fmt(percentile(relayed, 50))}  ${fmt(percentile(relayed, 99))}`);
      console.log(`added by the relay     ${fmt(percentile(added, 50))}  ${fmt(percentile(added, 99))}`);
    } finally {
      await relay.stop();
      await fake.close();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
