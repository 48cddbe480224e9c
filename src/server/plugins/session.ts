import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { SESSION_COOKIE } from "../lib/access.js";

/**
 * The request's signed-in user and session, null until the matched route's access check (`lib/access.ts`, added
 * by `route()`) reads the session cookie. Nothing here looks at the URL: who may call what is written on the
 * contracts.
 */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest("user", null);
  app.decorateRequest("sessionId", null);
});

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    expires,
  });
}

/** OWASP's device cookie (modules/auth/device-cookie.ts): sent only to the API, kept after logout. */
export const DEVICE_COOKIE = "device";
const DEVICE_COOKIE_DAYS = 365;

export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(DEVICE_COOKIE, token, {
    path: "/api/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}

export function readDeviceCookie(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: request.protocol === "https" });
}
