/**
 * npm run bench:certificate-pdf
 * The certificate PDF (modules/certificates/certificate-pdf.ts): its size in bytes and the time to make one, p50 and
 * p99 of RUNS one after another (the first, which reads and parses the fonts, said apart), for a Latin name and for
 * one with Greek, Cyrillic and Latin Extended letters.
 */
import { performance } from "node:perf_hooks";
import { certificatePdf } from "../src/server/modules/certificates/certificate-pdf.js";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.RUNS ?? 50);
const NAMES = { latin: "Lena Learner", mixed: "Zoë Łukasiewicz · Ελένη · Дмитрий" };

for (const [label, learnerName] of Object.entries(NAMES)) {
  const text = {
    learnerName,
    courseTitle: "Rust for Everyone",
    ownerName: "Olga Owner",
    issuedAt: new Date("2026-11-27T12:00:00Z"),
    verifyUrl: "https://learn.example.test/certificates/AbCdEfGhIjKlMnOp",
  };
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= RUNS; i += 1) {
    const started = performance.now();
    bytes = (await certificatePdf(text)).length;
    times.push(performance.now() - started);
  }
  const [first, ...rest] = times;
  console.log(
    `${label.padEnd(6)} ${(bytes / 1024).toFixed(1)} KiB; first ${first?.toFixed(1)} ms, then p50 ${percentile(rest, 50).toFixed(1)} ms, p99 ${percentile(rest, 99).toFixed(1)} ms (${RUNS} runs)`,
  );
}
