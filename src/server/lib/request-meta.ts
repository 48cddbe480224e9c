import type { FastifyRequest } from "fastify";

/** Where a request came from, for the activity log and the per-IP limits. */
export type RequestMeta = { ip: string; userAgent: string | null };

/** IP (socket, or X-Forwarded-For only under TRUST_PROXY, which Fastify applies) and user agent. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: agent ? agent.slice(0, 500) : null };
}
