import type { FastifyReply, FastifyRequest } from "fastify";
import { requestMeta } from "../../lib/request-meta.js";
import { setDeviceCookie, setSessionCookie } from "../../plugins/session.js";
import type { SessionStore } from "../sessions/session-store.js";
import { startSession } from "./auth-service.js";
import { issueDeviceToken } from "./device-cookie.js";

/**
 * Signs the browser in as `userId`: a new session (any previous one ends) and its cookie, and a new device
 * cookie, so this browser keeps its own sign-in allowance when the account is locked for unknown devices.
 */
export async function signIn(request: FastifyRequest, reply: FastifyReply, sessions: SessionStore, userId: number): Promise<void> {
  const session = await startSession({ sessions, previousSessionId: request.sessionId, userId, meta: requestMeta(request) });
  setSessionCookie(request, reply, session.token, session.absoluteExpiresAt);
  setDeviceCookie(request, reply, issueDeviceToken(request.server.ctx.secrets, userId));
}
