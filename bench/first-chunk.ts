/** Milliseconds from the request until `marker` has arrived in its streamed body; the rest of the stream is cancelled. */
export async function firstChunkAfter(response: Promise<Response>, marker: string): Promise<number> {
  const started = performance.now();
  const res = await response;
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`no body: ${res.status}`);
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${marker}: ${text.slice(0, 300)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes(marker)) break;
  }
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}
