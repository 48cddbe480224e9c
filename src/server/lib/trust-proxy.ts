import { isIP } from "node:net";

/** Whether the address at `hop` (0 = the socket's peer, 1 = the last X-Forwarded-For entry...) is a proxy of ours. */
export type TrustHops = ((address: string, hop: number) => boolean) & { hops: number };

/**
 * What Fastify's `trustProxy` receives: off, the proxies' addresses / CIDR ranges, or a hop count as a
 * function (Fastify 5 no longer applies a bare number: it trusts nothing then).
 */
export type TrustProxy = false | string[] | TrustHops;

/** Trusts the nearest `hops` addresses, whatever they are (the proxies in front of the app). */
export function trustHops(hops: number): TrustHops {
  return Object.assign((_address: string, hop: number) => hop < hops, { hops });
}

export const TRUST_PROXY_FORMS =
  "false, true (one proxy), a hop count such as 2, or a comma list of proxy addresses/CIDRs such as 10.0.0.1,10.1.0.0/16";

function isAddressOrCidr(value: string): boolean {
  const [address = "", bits, ...rest] = value.split("/");
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * An X-Forwarded-For entry worth believing: an IPv4 or IPv6 address and nothing else (no name, no port, no
 * zone such as `%eth0`, which would let one address be written many ways).
 */
export function isPlainAddress(value: string): boolean {
  return isIP(value) !== 0 && !value.includes("%");
}

/**
 * The client address from the hops Fastify's trustProxy reached (`request.ips`: the socket's peer first, then
 * the X-Forwarded-For entries nearest first, up to the first one a trusted proxy did not add). Only valid
 * addresses are believed: the walk stops before the first entry that is not one, so a forged
 * `not-an-ip<script>` leaves the nearest valid hop, the socket's peer when it was the first entry.
 */
export function believedAddress(hops: readonly string[]): string {
  let address = hops[0] as string;
  for (const hop of hops.slice(1)) {
    if (!isPlainAddress(hop)) break;
    address = hop;
  }
  return address;
}

/**
 * TRUST_PROXY as Fastify's trustProxy forms. `true` means one hop (the proxy in front of the app), never
 * "believe every X-Forwarded-For": the client address is then the last address the trusted proxies did
 * not add, so a forged first entry is ignored. Returns an error message for anything else.
 */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxy } | { error: string } {
  const text = (raw ?? "").trim().toLowerCase();
  if (text === "" || text === "false" || text === "0" || text === "no") return { value: false };
  if (text === "true" || text === "yes") return { value: trustHops(1) };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 100 ? { value: trustHops(hops) } : { error: `TRUST_PROXY hop count must be at most 100 (got ${hops})` };
  }
  const entries = text.split(",").map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isAddressOrCidr(entry));
  if (wrong.length > 0)
    return { error: `TRUST_PROXY must be ${TRUST_PROXY_FORMS}; not an address or CIDR: ${wrong.join(", ") || "(empty)"}` };
  return { value: entries };
}
