/**
 * npm run bench:ingest-reading [-- --pages 300] [-- --runs 3]
 * The reading part of ingestion (issue 30): a generated PDF of `pages` pages of prose (about 400 words a page),
 * read in the reader thread and chunked there (`extractChunks`), from this process's first file (a cold reader:
 * starting the thread and loading pdf.js into it) and then again `runs - 1` times (a warm reader). For each run:
 * the time, the RSS growth over the RSS before (peak, sampled every 20 ms), and the main thread's event-loop delay
 * (perf_hooks.monitorEventLoopDelay: p99 and max) while it ran, beside the same delay over an idle wait as long (what
 * the machine's other load costs alone). Targets for the whole ingestion later: ready <= 60 s, RSS growth <= 200 MB,
 * loop delay p99 <= 50 ms.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { extractChunks } from "../src/server/modules/knowledge/reading/extract-text.js";
import { detectFile } from "../src/server/modules/knowledge/reading/file-kind.js";
import { makePdf } from "../tests/helpers/make-pdf.js";
import { seededRandom } from "../tests/helpers/seeded-random.js";

const { values: args } = parseArgs({ options: { pages: { type: "string", default: "300" }, runs: { type: "string", default: "3" } } });
const PAGES = Number(args.pages);
const RUNS = Math.max(1, Number(args.runs));
const WORDS_A_PAGE = 400;
const TARGETS = { ms: 60_000, rssMb: 200, loopP99Ms: 50 };

const VOCABULARY = (
  "the of and to in is that for it as with was on be by this are from or an at which have not but had his they you " +
  "were their one all we can her has there been if more when will would who so no cell cells membrane protein energy " +
  "enzyme nucleus organism tissue structure function process molecule reaction system growth division species evidence " +
  "experiment observation result measure sample theory model pattern change rate water light temperature surface layer " +
  "transport signal pathway receptor gene genome sequence inheritance variation population environment adaptation"
).split(" ");

/** Deterministic prose: sentences of 8 to 20 words, paragraphs of 4 to 7 sentences, about `words` words. */
function page(random: ReturnType<typeof seededRandom>, number: number, words: number): string {
  const paragraphs: string[] = [];
  let count = 0;
  while (count < words) {
    const sentences: string[] = [];
    for (let s = 4 + random.int(4); s > 0 && count < words; s -= 1) {
      const length = 8 + random.int(13);
      const sentence = Array.from({ length }, () => random.pick(VOCABULARY)).join(" ");
      sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
      count += length;
    }
    paragraphs.push(sentences.join(" "));
  }
  return `Chapter ${Math.ceil(number / 20)}, page ${number}\n\n${paragraphs.join("\n\n")}`;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function measure<T>(work: () => Promise<T>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 20);
  histogram.enable();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  histogram.disable();
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  return { result, ms, rssGrowthMb: mb(rssPeak - rssBefore), p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6 };
}

const random = seededRandom(30);
const made = performance.now();
const pages = Array.from({ length: PAGES }, (_, i) => page(random, i + 1, WORDS_A_PAGE));
const pdf = await makePdf(pages);
const detected = detectFile(pdf, "bench.pdf");
if ("error" in detected) throw new Error(detected.error);
console.log(
  `generated a ${PAGES}-page PDF (${mb(pdf.length).toFixed(1)} MB, ${pages.join(" ").split(/\s+/).length.toLocaleString("en-US")} words) in ${(performance.now() - made).toFixed(0)} ms`,
);

const rows: string[] = [];
let failed = false;
for (let run = 1; run <= RUNS; run += 1) {
  const m = await measure(() => extractChunks(pdf, detected));
  const idle = await measure(() => new Promise((resolve) => setTimeout(resolve, m.ms)));
  const { chunks, pageCount } = m.result;
  const tokens = chunks.reduce((sum, c) => sum + c.tokens, 0);
  const within = m.ms <= TARGETS.ms && m.rssGrowthMb <= TARGETS.rssMb && m.p99Ms <= TARGETS.loopP99Ms;
  failed ||= !within;
  rows.push(
    `${run === 1 ? "cold" : "warm"} run ${run}: ${pageCount} pages, ${chunks.length} chunks (${tokens.toLocaleString("en-US")} tokens, ` +
      `${Math.round(tokens / chunks.length)} a chunk) in ${m.ms.toFixed(0)} ms; RSS growth ${m.rssGrowthMb.toFixed(1)} MB; ` +
      `loop delay p99 ${m.p99Ms.toFixed(1)} ms, max ${m.maxMs.toFixed(1)} ms (idle wait as long: p99 ${idle.p99Ms.toFixed(1)} ms, ` +
      `max ${idle.maxMs.toFixed(1)} ms)${within ? "" : "  <-- over a target"}`,
  );
  console.log(rows.at(-1));
}
console.log(
  `targets for the whole ingestion: <= ${TARGETS.ms / 1000} s, RSS growth <= ${TARGETS.rssMb} MB, loop delay p99 <= ${TARGETS.loopP99Ms} ms: ${failed ? "MISSED" : "met"} by reading and chunking`,
);
