/** `performance.now()` when `marker` has arrived in the streamed body of `response`; the rest of the stream is cancelled. */
export async function arrivalOf(response: Promise<Response>, marker: string): Promise<number> {
  const res = await response;
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`no body: ${res.status}`);
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${marker} (${res.status}): ${text.slice(0, 300)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes(marker)) break;
  }
  const at = performance.now();
  await reader.cancel();
  return at;
}

/** Milliseconds from the request until `marker` has arrived in its streamed body; the rest of the stream is cancelled. */
export async function firstChunkAfter(response: Promise<Response>, marker: string): Promise<number> {
  const started = performance.now();
  return (await arrivalOf(response, marker)) - started;
}
