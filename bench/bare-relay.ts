/**
 * The least a Node server can do between a browser and a provider: for bench/relay-floor.ts, run as its own
 * process by Node 24 (types stripped, Node's own modules only). Every POST is sent on to RELAY_TARGET with Node's
 * `fetch` (undici, as the provider packages use), and the answer's bytes are written back as they arrive: no
 * sign-in, database, parsing or re-encoding. Prints `listening <port>` once it listens on 127.0.0.1.
 */
import { createServer } from "node:http";

const target = process.env.RELAY_TARGET ?? "";
if (!target) throw new Error("RELAY_TARGET is required");

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    try {
      const upstream = await fetch(`${target}${req.url ?? ""}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: String(req.headers.authorization ?? "") },
        body: Buffer.concat(chunks),
        signal: gone.signal,
      });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/event-stream" });
      const reader = upstream.body?.getReader();
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) res.write(part.value);
      res.end();
    } catch {
      res.destroy();
    }
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
