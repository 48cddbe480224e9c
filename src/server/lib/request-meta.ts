import type { FastifyRequest } from "fastify";
import { believedAddress } from "./trust-proxy.js";

/** Where a request came from, for the activity log and the per-IP limits. */
export type RequestMeta = { ip: string; userAgent: string | null };

/**
 * The client address: the socket's peer, or under TRUST_PROXY the X-Forwarded-For hop Fastify's trustProxy
 * reaches, believed only through valid addresses (`believedAddress`). Read it here, never as `request.ip`,
 * which would hand on an entry such as `not-an-ip<script>`.
 */
export function clientIp(request: Pick<FastifyRequest, "ip" | "ips">): string {
  return request.ips ? believedAddress(request.ips) : request.ip;
}

/** IP (see `clientIp`) and user agent. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const agent = request.headers["user-agent"];
  return { ip: clientIp(request), userAgent: agent ? agent.slice(0, 500) : null };
}
