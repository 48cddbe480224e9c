import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { DEFAULT_EMBED_HOSTS } from "../../shared/embed-url.js";
import { bearerToken } from "../lib/access.js";
import { AppError } from "../lib/app-error.js";
import { NOT_CANONICAL_MESSAGE, NOT_CANONICAL_PATH } from "../lib/canonical-path.js";

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
 * Browser features the app never uses are turned off for it and every frame it embeds. `payment` stays for
 * the page and Stripe.js's frames (the Payment Element offers Apple Pay / Google Pay through the Payment
 * Request API); the video frames' autoplay, fullscreen and picture-in-picture are left alone. Only features
 * Chromium knows are named: an unknown one is a console error.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  'payment=(self "https://js.stripe.com")',
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/** Sent only on requests that arrived over https (directly, or through a TRUST_PROXY proxy's X-Forwarded-Proto). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** What an API answer (JSON, never a document) needs: nothing may load or frame it (OWASP REST Security). */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The 404 of a path that is not in canonical form, then security headers on every response (computed once, set by a callback hook:
 * this runs on every request) and a refusal of state-changing requests from other sites. Pages get the
 * document's policy (scripts, frames, Stripe) and the Permissions-Policy; `/api/` answers, which no browser
 * renders, get the short API set, a few hundred bytes less on every read (issue 15, bench/auth-read).
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const common = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin",
  };
  const apiHeaders = { ...common, "content-security-policy": API_CONTENT_SECURITY_POLICY };
  const pageHeaders = {
    ...common,
    "content-security-policy": contentSecurityPolicy(app.ctx.config.VIDEO_EMBED_HOSTS),
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": PERMISSIONS_POLICY,
  };
  const publicOrigin = app.ctx.config.PUBLIC_ORIGIN;

  // A path not in canonical form was sent to this one route by `rewriteUrl` (lib/canonical-path.ts), before
  // routing: answered 404 first of all, before the cross-site check, cookies, the body or any handler.
  app.all(NOT_CANONICAL_PATH, (_request, reply) => {
    reply.status(404).send({ message: NOT_CANONICAL_MESSAGE });
  });

  app.addHook("onRequest", (request, reply, done) => {
    if (request.routeOptions.url === NOT_CANONICAL_PATH) {
      reply.headers(apiHeaders).status(404).send({ message: NOT_CANONICAL_MESSAGE });
      return;
    }
    // A contract's answer (the API's, the OpenAI-compatible endpoint's) is data, never a page: no page may be framed or
    // run from it. Decided by the matched route (`route()` puts its contract on it), never by the URL's text.
    reply.headers(request.routeOptions.config?.endpoint ? apiHeaders : pageHeaders);
    if (request.protocol === "https") reply.header("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    // A bearer request is authenticated by its token alone, never by a cookie (lib/access.ts): nothing to forge.
    if (!SAFE_METHODS.has(request.method) && bearerToken(request) === undefined && !isSameOrigin(request, publicOrigin)) {
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
