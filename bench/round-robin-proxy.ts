import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The plainest load balancer in front of several instances (bench/concurrent-streams.ts): node:http on 127.0.0.1,
 * each request to the next backend in turn, method, path, headers and body passed through as they come, the
 * answer streamed back chunk by chunk (Server-Sent Events included), no sticky sessions, no retries. A backend
 * that cannot be reached answers 502.
 */
export async function startRoundRobinProxy(backends: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const targets = backends.map((base) => new URL(base));
  // Keep-alive to the backends, no cap on sockets: every stream holds one for its whole length.
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let next = 0;
  const server = createServer((req, res) => {
    const target = targets[next++ % targets.length] as URL;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("bad gateway");
      else res.destroy();
    });
    // The client went away: so does the request to the backend.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  // A backlog as deep as the system allows (net.core.somaxconn): thousands of clients connect in the same instant.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
