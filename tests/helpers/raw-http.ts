import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a socket: the path goes out exactly as given (no URL parser
 * in between normalises `/./`, `//` or `\`, as `app.inject` and `fetch` do), so the server sees what an
 * attacker's client sends.
 */
export function rawRequest(
  port: number,
  request: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const body = request.body ?? "";
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      connection: "close",
      ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}),
      ...request.headers,
    };
    const head = [`${request.method} ${request.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n");
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${request.method} ${request.path}`)));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const status = Number(statusLine.split(" ")[1]);
      const answerHeaders: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(":");
        answerHeaders[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      let answerBody = text.slice(split + 4);
      if (answerHeaders["transfer-encoding"] === "chunked") answerBody = unchunk(answerBody);
      resolve({ status, headers: answerHeaders, body: answerBody });
    });
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

function unchunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
