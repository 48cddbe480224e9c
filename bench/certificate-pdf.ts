/**
 * npm run bench:certificate-pdf
 * The certificate PDF (modules/certificates/certificate-pdf.ts): its size in bytes and the time to make one, p50 and
 * p99 of RUNS one after another (the first, which reads and parses the fonts, said apart), for a Latin name and for
 * one with Greek, Cyrillic and Latin Extended letters, and one in Japanese, Chinese and Korean (Noto Sans CJK files,
 * decision 062), in the style STYLE (classic, modern or minimal; classic when unset).
 */
import { performance } from "node:perf_hooks";
import { certificatePdf } from "../src/server/modules/certificates/certificate-pdf.js";
import { CERTIFICATE_STYLES, type CertificateStyle } from "../src/shared/contracts/courses.js";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.RUNS ?? 50);
const NAMES = { latin: "Lena Learner", mixed: "Zoë Łukasiewicz · Ελένη · Дмитрий", cjk: "山田 花子 · 张伟 · 김민준" };

const STYLE = CERTIFICATE_STYLES.includes(process.env.STYLE as CertificateStyle) ? (process.env.STYLE as CertificateStyle) : "classic";

for (const [label, learnerName] of Object.entries(NAMES)) {
  const text = {
    platformName: "Lumora",
    style: STYLE,
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
    `${STYLE} ${label.padEnd(6)} ${(bytes / 1024).toFixed(1)} KiB; first ${first?.toFixed(1)} ms, then p50 ${percentile(rest, 50).toFixed(1)} ms, p99 ${percentile(rest, 99).toFixed(1)} ms (${RUNS} runs)`,
  );
}
