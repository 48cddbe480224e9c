import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { TOKEN_MESSAGES } from "../../shared/contracts/api-tokens.js";
import type { Access, EndpointShape, TokenScope } from "../../shared/contracts/endpoint.js";
import { ADMINS_ONLY } from "../../shared/contracts/errors.js";
import { OPENAI_MESSAGES } from "../../shared/contracts/openai.js";
import { hasEarlyAccess, PLAN_REFUSALS } from "../../shared/plan.js";
import { type SessionEndReason, SIGNED_OUT_MESSAGES } from "../../shared/signed-out.js";
import { AppError } from "./app-error.js";
import type { Who } from "./who.js";

export const SESSION_COOKIE = "sid";

export const SIGN_IN_NEEDED = "You need to sign in to do that.";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, set from the session by the matched route's access check (never from input). */
    user: Who | null;
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route: its contract's `access` (set by `route()`). */
    access?: Access;
  }
}

/** A session as the session store hands it out. */
interface SessionHit {
  id: string;
  user: Who;
}

/** What the access check needs of the session store (`app.ctx.sessions`). */
export interface SessionLookup {
  cached(token: string): SessionHit | null | undefined;
  resolve(token: string): Promise<SessionHit | null>;
  /** Why the token's session was ended for its browser, when the server knows (asked only on the way to a 401). */
  endedReason(token: string): Promise<SessionEndReason | null>;
}

/** What the access check needs of personal API tokens (`app.ctx.apiTokens`, issue 35). */
export interface BearerLookup {
  /** The token's user (acting as a plain user) and scopes; null: unknown, revoked, expired, user disabled, plan off. */
  resolve(token: string): Promise<{ who: Who; scopes: TokenScope[] } | null>;
}

/**
 * The session cookie's token, or undefined when the request carries none that could be one (missing, or longer than
 * any token the server gives). The one reader of the cookie: the access check and the pages that draw a signed-in
 * shell (`plugins/static-web.ts`) both ask here, then ask the session store whether it is live.
 */
export function sessionToken(request: Pick<FastifyRequest, "cookies">): string | undefined {
  const token = request.cookies?.[SESSION_COOKIE];
  return token && token.length <= 100 ? token : undefined;
}

/** `Authorization: Bearer <token>`: the token, or undefined when the request carries no bearer token. */
export function bearerToken(request: Pick<FastifyRequest, "headers">): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string" || !/^bearer /i.test(header)) return undefined;
  return header.slice(7).trim();
}

/**
 * A request with a bearer token is its token's alone: cookies are not read, the endpoint must name a scope the token
 * holds (`tokenScope` on the contract; none on any admin route), and then the contract's access applies as for a user.
 */
function bearerAccess(
  endpoint: Pick<EndpointShape, "access" | "feature" | "tokenScope">,
  token: string,
  tokens: BearerLookup,
  request: FastifyRequest,
  done: (error?: Error) => void,
): void {
  const scope = endpoint.tokenScope;
  if (!scope) {
    done(new AppError("FORBIDDEN", TOKEN_MESSAGES.notForThis));
    return;
  }
  tokens.resolve(token).then((hit) => {
    if (!hit) return done(new AppError("UNAUTHORIZED", TOKEN_MESSAGES.notValid));
    if (!hit.scopes.includes(scope)) return done(new AppError("FORBIDDEN", TOKEN_MESSAGES.missingScope(scope)));
    request.user = hit.who;
    done(refusal(endpoint, hit.who));
  }, done);
}

/** The 401 of a session ended for its browser: the reason's words and the reason the web shows (issue 29, decision 061). */
const SESSION_ENDED = (reason: SessionEndReason) => new AppError("UNAUTHORIZED", SIGNED_OUT_MESSAGES[reason], { reason });

/** The refusal for `user`, or undefined when the endpoint's access lets them in. */
export function refusal(endpoint: Pick<EndpointShape, "access" | "feature">, user: Who | null): AppError | undefined {
  switch (endpoint.access) {
    case "public":
      return undefined;
    case "user":
      return user ? undefined : new AppError("UNAUTHORIZED", SIGN_IN_NEEDED);
    case "earlyAccess":
      if (!user) return new AppError("UNAUTHORIZED", SIGN_IN_NEEDED);
      return hasEarlyAccess(user) ? undefined : new AppError("FORBIDDEN", PLAN_REFUSALS[endpoint.feature ?? "personalities"]);
    case "admin":
      if (!user) return new AppError("UNAUTHORIZED", SIGN_IN_NEEDED);
      return user.role === "admin" ? undefined : new AppError("FORBIDDEN", ADMINS_ONLY);
    case "token":
      return user ? undefined : new AppError("UNAUTHORIZED", OPENAI_MESSAGES.tokenNeeded);
  }
}

/**
 * The matched route's first own hook (`route()` adds it): reads the session cookie, sets `request.user`, and
 * refuses whoever the contract's access leaves out, before the body is even read. It belongs to the route, so
 * it runs for exactly the routes Fastify matched, however the path was written. A callback rather than a
 * promise, answered at once when the session is in the cache (most requests): no extra turn of the event loop
 * on the hot path of every read (issue 15, bench/auth-read).
 */
export function accessHook(
  endpoint: Pick<EndpointShape, "access" | "feature" | "tokenScope">,
  sessions: () => SessionLookup,
  tokens: () => BearerLookup,
): onRequestHookHandler {
  if (endpoint.access === "earlyAccess" && !endpoint.feature) throw new Error("An earlyAccess endpoint names its plan feature");
  if (endpoint.access === "admin" && endpoint.tokenScope) throw new Error("An admin endpoint never takes API tokens");
  if (endpoint.access === "token" && !endpoint.tokenScope) throw new Error("A token endpoint names the scope it needs");
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const bearer = bearerToken(request);
    if (bearer !== undefined) return bearerAccess(endpoint, bearer, tokens(), request, done);
    // A token's endpoint never reads the session cookie: without a bearer token, nobody is signed in.
    if (endpoint.access === "token") return done(refusal(endpoint, null));
    const decide = (session: SessionHit | null | undefined) => {
      if (session) {
        request.user = session.user;
        request.sessionId = session.id;
      }
      done(refusal(endpoint, request.user));
    };
    const token = sessionToken(request);
    if (!token) return decide(null);
    const store = sessions();
    const hit = store.cached(token);
    if (hit) return decide(hit);
    store.resolve(token).then((session) => {
      // A cookie that signs in nobody, where a user is needed: say why its session was ended, when the server knows.
      if (session || endpoint.access === "public") return decide(session);
      store.endedReason(token).then((reason) => (reason ? done(SESSION_ENDED(reason)) : decide(null)), done);
    }, done);
  };
}
