import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { DEFAULT_EMBED_HOSTS } from "../../shared/embed-url.js";
import { AppError } from "../lib/app-error.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function contentSecurityPolicy(extraFrameHosts: readonly string[]): string {
  const frameHosts = [...DEFAULT_EMBED_HOSTS, ...extraFrameHosts].map((h) => `https://${h}`).join(" ");
  // Stripe.js (the checkout's Payment Element), as Stripe's CSP guide lists it: its script, its frames, its API.
  return [
    "default-src 'self'",
    "script-src 'self' https://js.stripe.com",
    // Radix positions popovers with inline style attributes; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://*.stripe.com",
    "font-src 'self' data:",
    "connect-src 'self' https://api.stripe.com",
    `frame-src ${frameHosts} https://js.stripe.com https://hooks.stripe.com`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Security headers on every response (computed once, set by a callback hook:
 * this runs on every request) and a refusal of state-changing requests from other sites.
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const headers = {
    "content-security-policy": contentSecurityPolicy(app.ctx.config.VIDEO_EMBED_HOSTS),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
  };
  const publicOrigin = app.ctx.config.PUBLIC_ORIGIN;

  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers);
    if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request, publicOrigin)) {
      done(new AppError("FORBIDDEN", "Cross-site requests are not allowed."));
      return;
    }
    done();
  });
});

/**
 * Browsers send Sec-Fetch-Site and Origin on every state-changing request; a
 * request that carries neither comes from a non-browser client, which cannot
 * ride on a visitor's cookie and is let through.
 */
function isSameOrigin(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = request.headers.origin;
  if (!origin) return true;
  if (publicOrigin && origin === publicOrigin) return true;
  return origin === `${request.protocol}://${request.host}`;
}
