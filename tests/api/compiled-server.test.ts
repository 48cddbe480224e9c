// The compiled server (issue 15): `npm run build` compiles src/server to one JavaScript module that `npm start`
// runs with plain Node and the serve script's flags. Built here into a scratch folder inside the project's dist/
// (so its packages resolve from node_modules), started on a new embedded database, and used: it migrates, answers,
// registers the first account and serves the prerender-less app shell's API; it loads no provider SDK until one is used.
// On two busy cores the start (a new PGlite database, its migrations) can take long: each step waits for what it
// needs (the build to end, the server to answer, its log line, its exit) up to a deadline of its own, never a fixed sleep.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificatesApi } from "../../src/shared/contracts/assessment.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { type CallInput, requestFor } from "../helpers/api-call.js";
import { newAccount } from "../helpers/build-test-app.js";
import { type RunningServer, serveScriptArgs, spawnServer } from "../helpers/spawn-server.js";

const root = path.resolve(import.meta.dirname, "../..");
const BUILD_WITHIN_MS = 60_000;
const READY_WITHIN_MS = 90_000;
/** The server's own shutdown grace is 10 s (main.ts), then it exits 1. */
const EXIT_WITHIN_MS = 20_000;
let outDir: string;
let dataDir: string;
let server: RunningServer;

/** Resolves when `read` is true; fails naming `what` (and the server's output) once `ms` have passed. */
async function until(what: string, read: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!read()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}:\n${server?.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The exit code, or a failure naming the server's output if it has not ended within `ms`. */
async function exitWithin(ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server did not exit within ${ms / 1000} s of SIGTERM:\n${server.output()}`)), ms);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(
  async () => {
    mkdirSync(path.join(root, "dist"), { recursive: true });
    outDir = mkdtempSync(path.join(root, "dist/compiled-server-test-"));
    dataDir = mkdtempSync(path.join(tmpdir(), "compiled-server-data-"));
    const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-server.ts", "--outDir", outDir], {
      cwd: root,
      encoding: "utf8",
      timeout: BUILD_WITHIN_MS,
    });
    expect(built.status, built.error ? `the build did not end within ${BUILD_WITHIN_MS / 1000} s` : built.stderr).toBe(0);
    server = await spawnServer(
      { DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, "no-web-build") },
      serveScriptArgs(path.join(outDir, "main.js")),
      { readyWithinMs: READY_WITHIN_MS },
    );
  },
  BUILD_WITHIN_MS + READY_WITHIN_MS + 10_000,
);
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  await server?.exited;
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the compiled server", () => {
  it("is one module with its migrations beside it, and no TypeScript", () => {
    expect(existsSync(path.join(outDir, "main.js"))).toBe(true);
    expect(existsSync(path.join(outDir, "migrations/meta/_journal.json"))).toBe(true);
    const code = readFileSync(path.join(outDir, "main.js"), "utf8");
    // The provider SDKs, Stripe and nodemailer are imported where first used, never at the top.
    for (const lazy of ["@ai-sdk/openai", "@ai-sdk/anthropic", "stripe", "nodemailer", '"ai"']) {
      expect(code, lazy).not.toMatch(new RegExp(`^import [^;]*from ["']${lazy.replaceAll('"', "")}["']`, "m"));
    }
  });

  it("refuses to start on a Node older than the one the project ships, saying which to use, before touching any data", () => {
    const emptyData = mkdtempSync(path.join(tmpdir(), "old-node-data-"));
    // Node 20 as `node dist/server/main.js` would find it on a machine's own PATH: the version is all the server reads.
    const asNode20 = "data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'20.20.2'}})";
    const run = spawnSync(process.execPath, ["--import", asNode20, path.join(outDir, "main.js")], {
      env: { ...process.env, DATA_DIR: emptyData, PORT: "0" },
      encoding: "utf8",
      timeout: 30_000,
    });
    try {
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("This server needs Node.js 24 or newer; it was started with Node.js 20.20.2.");
      expect(run.stderr).toContain("npm start");
      expect(readdirSync(emptyData)).toEqual([]);
    } finally {
      rmSync(emptyData, { recursive: true, force: true });
    }
  });

  it("migrates a new embedded database, answers, registers the first account, prints a certificate, and ends on SIGTERM", async () => {
    // Real HTTP to the compiled server: each request is the contract's (requestFor), sent with fetch; answers parsed by it.
    const send = <E extends EndpointShape>(endpoint: E, input: CallInput<E>, as = "") => {
      const request = requestFor(endpoint, input);
      return fetch(`${server.url}${request.url}`, {
        method: request.method,
        headers: { "content-type": "application/json", origin: server.url, cookie: as },
        body: request.method === "GET" ? undefined : JSON.stringify(request.payload ?? {}),
      });
    };
    const settings = await send(publicContentApi.paymentSettings, {});
    expect(settings.status).toBe(200);
    const account = { ...newAccount(), planType: "free" as const };
    const register = await send(authApi.register, { body: account });
    expect(register.status, await register.clone().text()).toBe(201);
    expect(authApi.register.response.parse(await register.json()).role).toBe("admin");
    // A chat import is read by its own thread, compiled beside main.js (import-worker.js).
    expect(existsSync(path.join(outDir, "import-worker.js"))).toBe(true);
    const cookie = (register.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const conversation = {
      title: "Compiled import",
      create_time: 1719000000,
      mapping: { q: { id: "q", message: { author: { role: "user" }, content: { content_type: "text", parts: ["hello"] } } } },
    };
    // A JSON body straight to the upload's address (the import also reads one sent as JSON).
    const imported = await fetch(`${server.url}${chatTransferApi.import.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify([conversation]),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await imported.json()).toEqual({ imported: 1, skipped: [] });
    // A certificate: the PDF's font (decision 042) is found from the compiled module, and a Greek name is printed.
    const course = await send(coursesApi.create, { body: { title: "Compiled course", isPublic: true, status: "published" } }, cookie);
    expect(course.status, await course.clone().text()).toBe(201);
    const courseId = coursesApi.create.response.parse(await course.json()).id;
    const moduleAnswer = await send(coursesApi.createModule, { params: { id: courseId }, body: { title: "One" } }, cookie);
    const module = coursesApi.createModule.response.parse(await moduleAnswer.json());
    const lesson = await send(
      lessonsApi.create,
      { params: { id: module.id }, body: { title: "Only", type: "reading", content: "Text" } },
      cookie,
    );
    const lessonId = lessonsApi.create.response.parse(await lesson.json()).id;
    const learner = await send(authApi.register, { body: { ...newAccount({ name: "Ελένη Дмитрий" }), planType: "free" } });
    expect(learner.status, await learner.clone().text()).toBe(201);
    const learnerCookie = (learner.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect((await send(lessonsApi.complete, { params: { id: lessonId } }, learnerCookie)).status).toBe(200);
    const certificate = await fetch(`${server.url}${requestFor(certificatesApi.certificate, { params: { id: courseId } }).url}`, {
      headers: { cookie: learnerCookie },
    });
    expect(certificate.status, await certificate.clone().text()).toBe(200);
    const { text } = await extractText(new Uint8Array(await certificate.arrayBuffer()), { mergePages: true });
    expect(text).toContain("Ελένη Дмитрий");
    // The log line is written as it starts listening; its pipe may reach us after the answers did.
    await until("the server's Ready line", () => server.output().includes("Ready on"), 10_000);
    server.child.kill("SIGTERM");
    expect(await exitWithin(EXIT_WITHIN_MS)).toBe(0);
  }, 60_000);
});
