import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

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

/** Starts `src/server/main.ts` as its own process, the way `npm start` runs it, and waits until it answers. */
export async function spawnServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
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
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    const ok = await fetch(`${url}/api/payment-settings`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, exited, output: () => log };
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not answer within 30 s:\n${log}`);
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
  };
}
