import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { isRefusedAddress, isRefusedHostName, normalizeHost, refusedAddressMessage } from "./address-rules.js";

/** Resolves a host name to its addresses (the real DNS by default; tests pass their own). */
export type McpLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const defaultMcpLookup: McpLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A refusal or failure told in plain words: its message is what the admin (or the model) reads. */
export class McpError extends Error {
  override name = "McpError";
}

export const REDIRECT_MESSAGE = "The server answered with a redirect, which is not followed";

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetch {
  fetch: FetchLike;
  /** The first refusal the guard made, which explains a failure better than the SDK's wrapping of it. */
  refusal(): McpError | undefined;
  close(): Promise<void>;
}

/** Checks the URL an admin registered (http or https, a host, no credentials) and answers it parsed. */
export function parseMcpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new McpError("The URL is not a valid address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new McpError("The URL must start with http:// or https://");
  if (url.username || url.password) throw new McpError("The URL must not carry a user name or password (use a header)");
  if (isRefusedHostName(url.hostname)) throw new McpError(refusedAddressMessage(url.hostname));
  const host = normalizeHost(url.hostname);
  if (isIP(host) && isRefusedAddress(host)) throw new McpError(refusedAddressMessage(url.hostname));
  return url;
}

/** The address to connect to: a literal as is, a name resolved once, every answer checked (one refused: refused). */
export async function checkedAddress(hostname: string, lookup: McpLookup): Promise<{ address: string; family: number }> {
  const host = normalizeHost(hostname);
  if (isRefusedHostName(host)) throw new McpError(refusedAddressMessage(hostname));
  const literal = isIP(host);
  if (literal) {
    if (isRefusedAddress(host)) throw new McpError(refusedAddressMessage(hostname));
    return { address: host, family: literal };
  }
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host);
  } catch {
    throw new McpError(`The host name ${hostname} could not be found`);
  }
  if (answers.length === 0) throw new McpError(`The host name ${hostname} could not be found`);
  const refused = answers.find((a) => isRefusedAddress(a.address));
  if (refused) throw new McpError(`${hostname} resolves to ${refused.address}: ${refusedAddressMessage(refused.address)}`);
  const first = answers[0] as { address: string; family: number };
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A fetch for one MCP conversation with one registered server: only its origin, never a redirect, its host resolved
 * once and checked, and the connection made to THAT address (the socket's lookup answers it), so a DNS answer that
 * changes between the check and the connect (rebinding) cannot move the request. The server's headers go on every
 * request.
 */
export function guardedFetch(registeredUrl: string, headers: Record<string, string>, lookup: McpLookup = defaultMcpLookup): GuardedFetch {
  const registered = parseMcpUrl(registeredUrl);
  let firstRefusal: McpError | undefined;
  let pinned: Promise<{ address: string; family: number }> | undefined;
  let agent: Agent | undefined;

  const refuse = (error: McpError): never => {
    firstRefusal ??= error;
    throw error;
  };

  const fetch: FetchLike = async (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : (input as Request).url);
    if (url.protocol !== registered.protocol || url.host !== registered.host) {
      refuse(new McpError(`The server sent the client to ${url.origin}, which is not the registered address ${registered.origin}`));
    }
    pinned ??= checkedAddress(registered.hostname, lookup);
    const target = await pinned.catch((error: unknown) => refuse(error instanceof McpError ? error : new McpError(String(error))));
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    agent ??= new Agent({ connect: { lookup: pinnedLookup } });
    const merged = new Headers(init?.headers as HeadersInit | undefined);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    const response = await undiciFetch(url, {
      method: init?.method,
      body: init?.body as string | undefined,
      signal: init?.signal,
      headers: Object.fromEntries(merged.entries()),
      redirect: "manual",
      dispatcher: agent,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      refuse(new McpError(REDIRECT_MESSAGE));
    }
    return response as unknown as Response;
  };

  return {
    fetch,
    refusal: () => firstRefusal,
    async close() {
      // Destroy, not close: an open event stream would keep a graceful close waiting.
      await agent?.destroy().catch(() => {});
    },
  };
}
