import type { FastifyInstance } from "fastify";
import { emailOutboxApi as api } from "../../../shared/contracts/email-outbox.js";
import { route } from "../../lib/route.js";
import { getOutboxEmail, listOutbox, resendOutboxEmail } from "./outbox-service.js";

/** The outbox (admin): the list, one message for its preview, and resend, under /api/admin/email-outbox. */
export async function emailOutboxRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, api.list, async (request) => listOutbox({ db, who: request.user, query: request.query }));
  route(app, api.get, async (request) => getOutboxEmail({ db, who: request.user, id: request.params.id }));
  route(app, api.resend, async (request) => resendOutboxEmail({ db, who: request.user, id: request.params.id }));
}
