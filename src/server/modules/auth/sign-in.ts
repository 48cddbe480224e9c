import type { FastifyReply, FastifyRequest } from "fastify";
import { requestMeta } from "../../lib/request-meta.js";
import { setSessionCookie } from "../../plugins/session.js";
import type { SessionStore } from "../sessions/session-store.js";
import { startSession } from "./service.js";

/** Signs the browser in as `userId`: a new session (any previous one ends) and its cookie. */
export async function signIn(request: FastifyRequest, reply: FastifyReply, sessions: SessionStore, userId: number): Promise<void> {
  const session = await startSession({ sessions, previousSessionId: request.sessionId, userId, meta: requestMeta(request) });
  setSessionCookie(request, reply, session.token, session.absoluteExpiresAt);
}
