/**
 * Server-Sent Events read with fetch (the reply streams are POSTs, which
 * EventSource cannot send). Only `data:` fields matter here: each event's data
 * lines are joined with "\n" and handed over when the blank line ends it.
 */
export function createSseParser(onData: (data: string) => void) {
  let buffer = "";
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0) onData(data.join("\n"));
    data = [];
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return; // a comment (keep-alive)
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
  };

  return {
    /** Feeds decoded text; complete lines are handled at once, the rest waits for the next chunk. */
    push(text: string): void {
      buffer += text;
      let end = buffer.search(/\r\n|\r|\n/);
      while (end !== -1) {
        // A lone "\r" at the very end may be the first half of "\r\n": wait for more.
        if (buffer[end] === "\r" && end === buffer.length - 1) break;
        const breakLength = buffer.startsWith("\r\n", end) ? 2 : 1;
        line(buffer.slice(0, end));
        buffer = buffer.slice(end + breakLength);
        end = buffer.search(/\r\n|\r|\n/);
      }
    },
    /** The stream ended: an unterminated last line and event still count. */
    end(): void {
      if (buffer !== "") line(buffer.replace(/\r$/, ""));
      buffer = "";
      dispatch();
    },
  };
}

/** Reads a response body to its end, calling `onData` with each event's data (UTF-8, split anywhere). */
export async function readSseStream(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const parser = createSseParser(onData);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
