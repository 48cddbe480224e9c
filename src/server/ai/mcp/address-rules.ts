import { isIP } from "node:net";

/**
 * Where an MCP request may go (issue 34, decision 045). Loopback and private addresses are allowed (self-hosters run
 * MCP servers beside the app); link-local addresses and the clouds' metadata endpoints are always refused, in every
 * form an address can take (IPv4, IPv6, IPv4-mapped, IPv4-compatible and NAT64 IPv6).
 */

/** Host names the clouds give their metadata services; refused before any lookup. */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Metadata endpoints outside the link-local ranges. */
const METADATA_V4 = new Set([
  "100.100.100.200", // Alibaba Cloud
  "168.63.129.16", // Azure's host agent (WireServer)
]);
const METADATA_V6 = [
  "fd00:ec2::254", // AWS over IPv6
  "fd20:ce::254", // Google Cloud over IPv6
].map((a) => ipv6Groups(a));

/** The words every refusal of an address uses. */
export function refusedAddressMessage(host: string): string {
  return `The address ${host} is a link-local or cloud metadata address, which MCP servers may not use`;
}

/** Lower case, without the brackets of an IPv6 literal and without a final dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

/** Whether a host name (before any lookup) is a metadata service's name. */
export function isRefusedHostName(host: string): boolean {
  return METADATA_NAMES.has(normalizeHost(host));
}

function ipv4Octets(address: string): number[] | null {
  if (isIP(address) !== 4) return null;
  return address.split(".").map(Number);
}

function refusedIpv4(octets: number[]): boolean {
  const [a, b] = octets;
  if (a === 169 && b === 254) return true; // 169.254.0.0/16, link-local (and 169.254.169.254)
  return METADATA_V4.has(octets.join("."));
}

/** The eight 16-bit groups of an IPv6 address (a zone id dropped, an embedded dotted IPv4 read), or null. */
export function ipv6Groups(address: string): number[] | null {
  const plain = address.split("%")[0] ?? "";
  if (isIP(plain) !== 6) return null;
  let text = plain;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = ipv4Octets(last);
    if (!v4) return null;
    tail.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest === undefined ? [] : rest ? rest.split(":") : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const all = [...headGroups, ...(rest === undefined ? [] : Array(missing).fill("0")), ...restGroups].map((g) => Number.parseInt(g, 16));
  if (all.length !== 8 || all.some((g) => Number.isNaN(g))) return null;
  if (tail.length) all.splice(6, 2, ...tail);
  return all;
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96), or null. */
function embeddedIpv4(groups: number[]): number[] | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  const mapped = zeroHead && g5 === 0xffff;
  const compatible = zeroHead && g5 === 0 && (g6 !== 0 || g7 > 1); // not :: or ::1
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (!mapped && !compatible && !nat64) return null;
  return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
}

function refusedIpv6(groups: number[]): boolean {
  if (((groups[0] ?? 0) & 0xffc0) === 0xfe80) return true; // fe80::/10, link-local
  if (METADATA_V6.some((m) => m?.every((g, i) => g === groups[i]))) return true;
  const v4 = embeddedIpv4(groups);
  return v4 ? refusedIpv4(v4) : false;
}

/** Whether an IP address (v4 or v6, any textual form) may never be reached. Anything that is not an IP is refused. */
export function isRefusedAddress(address: string): boolean {
  const normalized = normalizeHost(address);
  const v4 = ipv4Octets(normalized);
  if (v4) return refusedIpv4(v4);
  const v6 = ipv6Groups(normalized);
  if (v6) return refusedIpv6(v6);
  return true;
}
