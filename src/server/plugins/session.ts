import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/app-error.js";
import type { Who } from "../lib/who.js";

export const SESSION_COOKIE = "sid";

/**
 * Reads the session cookie of every API request (not of static files) and sets `request.user`; then the back
 * office, checked in one place: every /api/admin/* call needs a signed-in admin. A hook with a callback rather
 * than a promise, answered at once when the session is in the cache (most requests): no promise and no extra
 * turn of the event loop on the hot path of every read (issue 15, bench/auth-read).
 */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest("user", null);
  app.decorateRequest("sessionId", null);
  const admitted = (request: FastifyRequest, done: (error?: Error) => void) => {
    if ((request.routeOptions.url ?? request.url).startsWith(ADMIN_PREFIX) && request.user?.role !== "admin") {
      try {
        requireAdmin(request);
      } catch (error) {
        done(error as Error);
        return;
      }
    }
    done();
  };
  app.addHook("preHandler", (request, _reply, done) => {
    // Static files and page shells never need the user; only API calls do.
    if (!request.url.startsWith("/api/")) return done();
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 100) return admitted(request, done);
    const signIn = (session: { id: string; user: Who } | null) => {
      if (session) {
        request.user = session.user;
        request.sessionId = session.id;
      }
      admitted(request, done);
    };
    const hit = app.ctx.sessions.cached(token);
    if (hit) return signIn(hit);
    app.ctx.sessions.resolve(token).then(signIn, done);
  });
});

const ADMIN_PREFIX = "/api/admin/";

/** The admin behind an /api/admin/* call (the prefix hook has refused everyone else). */
export function adminOf(request: FastifyRequest): Who {
  if (!(request.routeOptions.url ?? request.url).startsWith(ADMIN_PREFIX))
    throw new Error(`adminOf() outside ${ADMIN_PREFIX}: use requireAdmin()`);
  return requireAdmin(request);
}

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

export function requireUser(request: FastifyRequest): Who {
  if (!request.user) throw new AppError("UNAUTHORIZED", "You need to sign in to do that.");
  return request.user;
}

export function requireAdmin(request: FastifyRequest): Who {
  const user = requireUser(request);
  if (user.role !== "admin") throw new AppError("FORBIDDEN", "You don't have permission to access this area.");
  return user;
}
