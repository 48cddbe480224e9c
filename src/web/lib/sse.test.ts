import { describe, expect, it } from "vitest";
import { createSseParser, readSseStream } from "./sse.js";

function collect(chunks: string[]) {
  const seen: string[] = [];
  const parser = createSseParser((data) => seen.push(data));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return seen;
}

function byteStream(chunks: Uint8Array[]) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe("createSseParser", () => {
  it("hands over each event's data", () => {
    expect(collect(['data: {"type":"delta"}\n\ndata: {"a":1}\n\n'])).toEqual(['{"type":"delta"}', '{"a":1}']);
  });

  it("joins an event split across chunks anywhere, even inside the field name", () => {
    const text = 'data: {"text":"Hello"}\n\ndata: {"text":"World"}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(collect([text.slice(0, cut), text.slice(cut)])).toEqual(['{"text":"Hello"}', '{"text":"World"}']);
    }
    expect(collect(text.split(""))).toEqual(['{"text":"Hello"}', '{"text":"World"}']);
  });

  it("accepts CRLF and CR line ends, split between chunks", () => {
    expect(collect(["data: one\r", "\n\r", "\ndata: two\r\r"])).toEqual(["one", "two"]);
  });

  it("joins multi-line data, skips comments and other fields, and keeps a value without the space", () => {
    expect(collect([": ping\n\nevent: message\nid: 3\ndata: a\ndata:b\nretry: 10\n\n"])).toEqual(["a\nb"]);
  });

  it("delivers an unterminated last event when the stream ends", () => {
    expect(collect(["data: last"])).toEqual(["last"]);
    expect(collect(["\n\n"])).toEqual([]);
  });
});

describe("readSseStream", () => {
  it("decodes UTF-8 split inside a character", async () => {
    const bytes = new TextEncoder().encode('data: {"text":"héllo 👋"}\n\n');
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    const seen: string[] = [];
    await readSseStream(byteStream(chunks), (data) => seen.push(data));
    expect(seen).toEqual(['{"text":"héllo 👋"}']);
  });
});
