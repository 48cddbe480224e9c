import type { FastifyInstance } from "fastify";
import { adminContactApi as admin, contactApi as api } from "../../../shared/contracts/contact.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { publicOrigin } from "../email/product-emails.js";
import {
  countUnreadContactMessages,
  deleteContactMessage,
  listContactMessages,
  markContactMessage,
  sendContactMessage,
} from "./contact-service.js";

/** The public contact form, and the admins' Contact Messages page. */
export async function contactRoutes(app: FastifyInstance) {
  const { db, counters, config } = app.ctx;
  route(app, api.send, async (request) =>
    sendContactMessage({ db, counters, input: request.body, meta: requestMeta(request), origin: publicOrigin(config) }),
  );
  route(app, admin.list, async (request) => listContactMessages({ db, filter: request.query.filter, cursor: request.query.cursor }));
  route(app, admin.unreadCount, async () => countUnreadContactMessages(db));
  route(app, admin.update, async (request) => markContactMessage({ db, id: request.params.id, read: request.body.read }));
  route(app, admin.remove, async (request) => deleteContactMessage({ db, id: request.params.id }));
}
