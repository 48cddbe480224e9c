import type { FastifyInstance } from "fastify";
import { emailApi as api } from "../../../shared/contracts/email.js";
import { route } from "../../lib/route.js";
import { testSmtp } from "./smtp-test.js";
import { createTemplate, deleteTemplate, listTemplates, sendTemplateTest, updateTemplate } from "./templates-service.js";

/** Email (admin): SMTP test, templates and their test sends, the outbox and its previews. */
export async function emailRoutes(app: FastifyInstance) {
  const { db, secrets } = app.ctx;
  route(app, api.listTemplates, async (request) => listTemplates({ db, who: request.user }));
  route(app, api.createTemplate, async (request) => createTemplate({ db, who: request.user, input: request.body }));
  route(app, api.updateTemplate, async (request) => updateTemplate({ db, who: request.user, id: request.params.id, input: request.body }));
  route(app, api.removeTemplate, async (request) => {
    await deleteTemplate({ db, who: request.user, id: request.params.id });
    return null;
  });
  route(app, api.testTemplate, async (request) => sendTemplateTest({ db, who: request.user, id: request.params.id, input: request.body }));
  route(app, api.smtpTest, async (request) => testSmtp({ db, who: request.user, secrets, input: request.body }));
}
