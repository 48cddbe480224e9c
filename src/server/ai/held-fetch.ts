/**
 * A provider request that waits for its start (decision 057). A chat reply's request is built while its start is
 * stored (`start_reply`: the allowance's claim and hold, the chat's checks, the rows; decision 025): the prompt, the
 * model and its SDK, the provider's body and headers. Only the HTTP request itself waits, and it leaves once the start
 * succeeded; a start refused (429, 409, a failure) never reaches the provider, so nobody pays for a refused reply.
 *
 * The providers' SDKs are given `heldFetch` as their `fetch` (language-model.ts). A call marked with `sendAfter(signal,
 * ready)` (its abort signal, which the SDKs hand to `fetch` as it is) waits there for `ready`: fulfilled, the request
 * leaves; rejected, it never does and the call fails with that reason. Any other call goes at once.
 */
const gates = new WeakMap<AbortSignal, Promise<unknown>>();

/** The call made with `signal` sends its request only once `ready` is fulfilled, never when it is rejected. */
export function sendAfter(signal: AbortSignal, ready: Promise<unknown>): void {
  gates.set(signal, ready);
}

/** `fetch`, held at its gate when its call has one (`sendAfter`). */
export const heldFetch: typeof globalThis.fetch = async (input, init) => {
  const ready = init?.signal ? gates.get(init.signal) : undefined;
  if (ready) await ready;
  return globalThis.fetch(input, init);
};
