// The reader thread in the compiled server (issue 30): `npm run build` compiles extract-worker.ts beside main.js
// (scripts/build-server.ts), and extract-text.ts, compiled into main.js, starts it from there with plain Node, no
// tsx. Built here into a scratch folder inside dist/ (so packages resolve from node_modules), with a probe compiled
// the same way into the same folder in place of main.js, run as its own process.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx, makePdf, makePdfDeclaringPages } from "../helpers/make-pdf.js";

const root = path.resolve(import.meta.dirname, "../..");
const BUILD_WITHIN_MS = 90_000;
let outDir: string;

const PROBE = `
import { readFileSync } from "node:fs";
import { detectFile } from "${root}/src/server/modules/knowledge/reading/file-kind.ts";
import { extractChunks } from "${root}/src/server/modules/knowledge/reading/extract-text.ts";
const results = [];
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const detected = detectFile(bytes, file);
  try {
    const { chunks, pageCount } = await extractChunks(bytes, detected);
    results.push({ pageCount, chunks: chunks.map((c) => ({ page: c.page, text: c.text, headingPath: c.headingPath })) });
  } catch (error) {
    results.push({ error: error.name, message: error.message });
  }
}
console.log(JSON.stringify(results));
`;

beforeAll(async () => {
  mkdirSync(path.join(root, "dist"), { recursive: true });
  outDir = mkdtempSync(path.join(root, "dist/reading-compiled-test-"));
  const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-server.ts", "--outDir", outDir], {
    cwd: root,
    encoding: "utf8",
    timeout: BUILD_WITHIN_MS,
  });
  expect(built.status, built.error ? `the build did not end within ${BUILD_WITHIN_MS / 1000} s` : built.stderr).toBe(0);
  writeFileSync(path.join(outDir, "probe.ts"), PROBE);
  await build({
    absWorkingDir: root,
    entryPoints: { probe: path.join(outDir, "probe.ts") },
    outdir: outDir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
}, BUILD_WITHIN_MS + 30_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("the compiled reader thread", () => {
  it("is built beside main.js as plain JavaScript", () => {
    const worker = path.join(outDir, "extract-worker.js");
    expect(existsSync(path.join(outDir, "main.js"))).toBe(true);
    expect(existsSync(worker)).toBe(true);
    const code = readFileSync(worker, "utf8");
    expect(code).not.toMatch(/from ["'][^"']*\.ts["']/);
    expect(code).toContain("unpdf");
  });

  it("reads a PDF and a DOCX, and refuses a hostile PDF, run by plain Node from the compiled code", async () => {
    const pdfPath = path.join(outDir, "three.pdf");
    const docxPath = path.join(outDir, "notes.docx");
    const hugePath = path.join(outDir, "huge.pdf");
    writeFileSync(pdfPath, await makePdf(["First page.", "Second page.", "Third page holds the answer."]));
    writeFileSync(docxPath, makeDocx([{ heading: 1, text: "Notes" }, { text: "A line of notes." }]));
    writeFileSync(hugePath, await makePdfDeclaringPages(100_000));
    const run = spawnSync(process.execPath, [path.join(outDir, "probe.js"), pdfPath, docxPath, hugePath], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const [pdf, docx, huge] = JSON.parse(run.stdout.trim().split("\n").pop()!);
    expect(pdf.pageCount).toBe(3);
    expect(pdf.chunks.map((c: { page: number }) => c.page)).toEqual([1, 2, 3]);
    expect(pdf.chunks[2].text).toBe("Third page holds the answer.");
    expect(docx.chunks).toEqual([{ page: null, text: "# Notes\n\nA line of notes.", headingPath: ["Notes"] }]);
    expect(huge).toEqual({ error: "ReadingError", message: "This PDF has more than 2,000 pages." });
  });
});
