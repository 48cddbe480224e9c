import type { FastifyRequest } from "fastify";

/** IP (socket, or X-Forwarded-For only under TRUST_PROXY, which Fastify applies) and user agent. */
export function requestMeta(request: FastifyRequest): { ip: string; userAgent: string | null } {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: agent ? agent.slice(0, 500) : null };
}
