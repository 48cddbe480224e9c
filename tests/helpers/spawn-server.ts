import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { type Called, type CallInput, type CallOptions, callEndpoint } from "./api-call.js";
import { newAccount } from "./build-test-app.js";
import { FAKE_KEY } from "./chat-setup.js";

const root = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts the server as its own process and waits until it answers: `src/server/main.ts` through tsx, or with
 * `nodeArgs` another entry (the compiled `dist/server/main.js` and the serve script's flags). Ready means a
 * public read answers 200; it is asked every 150 ms until `readyWithinMs` (90 s unless told: a tsx start of a new data folder took 23 s beside a loaded machine, decision 073; a tsx start of the
 * whole server beside a full API run on two busy cores took over 30 s), each ask bounded
 * by what is left of that deadline, so a server that never answers fails here with its output.
 */
export async function spawnServer(
  env: Record<string, string>,
  nodeArgs: string[] = ["--import", "tsx", "src/server/main.ts"],
  options: { readyWithinMs?: number } = {},
): Promise<RunningServer> {
  // freePort() closes the port it found before the server opens it: another process (a browser walk, another worker's
  // app) may take it between the two. That start ends at once with EADDRINUSE and is tried again on a new port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServerOnce(env, nodeArgs, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

async function spawnServerOnce(
  env: Record<string, string>,
  nodeArgs: string[],
  { readyWithinMs = 90_000 }: { readyWithinMs?: number },
): Promise<RunningServer> {
  const port = await freePort();
  let log = "";
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
      APP_SECRET: "spawned-test-secret-0123456789abcdefghij",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      if (log.includes("EADDRINUSE")) throw new PortTaken(`port ${port} was taken before the server opened it:\n${log}`);
      throw new Error(`server exited early:\n${log}`);
    }
    const ok = await fetch(`${url}/api/payment-settings`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, exited, output: () => log };
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not answer within ${readyWithinMs / 1000} s:\n${log}`);
}

/** fetch with a cookie jar of one session cookie. */
export function cookieFetch() {
  let cookie = "";
  return {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value;
    },
    async call(url: string, init: { method?: string; body?: unknown } = {}) {
      const response = await fetch(url, {
        method: init.method ?? "GET",
        headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...(cookie ? { cookie } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const setCookie = response.headers.get("set-cookie");
      if (setCookie?.startsWith("sid=")) cookie = setCookie.split(";")[0] === "sid=" ? "" : (setCookie.split(";")[0] ?? "");
      return response;
    },
    /**
     * One call through the contract to the server at `baseUrl`, over real HTTP with this jar's cookie: answered as
     * `client.call` answers in process (`.status`, `.data` parsed by the contract, `.error`, `.response`).
     */
    endpoint<E extends EndpointShape>(baseUrl: string, endpoint: E, input: CallInput<E>, options?: CallOptions): Promise<Called<E>> {
      return callEndpoint(
        async (request) => {
          const response = await this.call(`${baseUrl}${String(request.url)}`, { method: String(request.method), body: request.payload });
          return fetchedAsInjected(response, await response.text());
        },
        endpoint,
        input,
        options,
      );
    },
  };
}

/**
 * A fetched answer in the shape app.inject answers (what `callEndpoint` reads: status, headers, body, json()). Only
 * those fields are there; the cast says so once, here.
 */
function fetchedAsInjected(response: Response, body: string): LightMyRequestResponse {
  const answer = {
    statusCode: response.status,
    statusMessage: response.statusText,
    headers: Object.fromEntries(response.headers),
    body,
    payload: body,
    rawPayload: Buffer.from(body),
    json: () => JSON.parse(body),
  };
  return answer as unknown as LightMyRequestResponse;
}

/** Points the OpenAI platform of a spawned server at a provider stand-in (as `pointPlatformAt` does in-process). */
export async function pointSpawnedOpenAiAt(client: ReturnType<typeof cookieFetch>, baseUrl: string, fake: { url: string }, apiKey: string) {
  const platforms = (await (await client.call(`${baseUrl}/api/ai-platforms`)).json()) as { id: number; slug: string }[];
  const openai = platforms.find((p) => p.slug === "openai");
  const patch = await client.call(`${baseUrl}/api/admin/ai-platforms/${openai?.id}`, {
    method: "PATCH",
    body: { apiKey, baseUrl: fake.url, settings: { models: ["fake-model"], defaultModel: "fake-model", freeModels: ["fake-model"] } },
  });
  if (patch.status !== 200) throw new Error(`pointing openai at the stand-in: ${patch.status} ${await patch.text()}`);
}

/** A first account (the admin) on a running server, with OpenAI pointed at the stand-in: the headers to act as it. */
export async function adminWithOpenAiAt(baseUrl: string, fake: { url: string }): Promise<Record<string, string>> {
  const client = cookieFetch();
  const registered = await client.call(`${baseUrl}/api/register`, { method: "POST", body: newAccount() });
  if (registered.status !== 201) throw new Error(`registering the admin: ${registered.status} ${await registered.text()}`);
  await pointSpawnedOpenAiAt(client, baseUrl, fake, FAKE_KEY);
  return { "content-type": "application/json", cookie: client.cookie };
}

/** The node arguments of package.json's `serve` script (how `npm start` runs the server), with `mainJs` as the entry. */
export function serveScriptArgs(mainJs: string): string[] {
  const serve =
    (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.serve ?? "";
  const [command, ...args] = serve.split(/\s+/).filter(Boolean);
  if (command !== "node" || !args.includes("dist/server/main.js"))
    throw new Error(`the serve script should run node dist/server/main.js: ${serve}`);
  return args.map((arg) => (arg === "dist/server/main.js" ? mainJs : arg));
}

/**
 * Compiles the server (scripts/build-server.ts) into .tmp/bench-<name>-server of this checkout (git-ignored), where its
 * packages resolve (node_modules may be a link shared by several checkouts, which must not build into one folder), and returns the node arguments that run it as `npm start` does: what the benches measure.
 */
export function buildCompiledServer(name: string): string[] {
  const outDir = path.join(root, `.tmp/bench-${name}-server`);
  const built = spawnSync("npx", ["tsx", "scripts/build-server.ts", "--outDir", outDir], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("building the server failed");
  return serveScriptArgs(path.join(outDir, "main.js"));
}
