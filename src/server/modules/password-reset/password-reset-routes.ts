import type { FastifyInstance } from "fastify";
import { passwordResetApi as api, FORGOT_PASSWORD_SENT, PASSWORD_RESET_DONE } from "../../../shared/contracts/password-reset.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { publicOrigin } from "../email/product-emails.js";
import { checkResetLink, requestPasswordReset, resetPassword } from "./password-reset-service.js";

/** Forgotten passwords: POST /api/forgot-password, POST /api/reset-password/check and POST /api/reset-password. */
export async function passwordResetRoutes(app: FastifyInstance) {
  const { db, sessions, counters, config } = app.ctx;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  route(app, api.forgot, async (request) => {
    await requestPasswordReset({ db, counters, input: request.body, meta: requestMeta(request), origin: publicOrigin(config), log });
    return { message: FORGOT_PASSWORD_SENT };
  });

  route(app, api.check, async (request) => ({
    state: await checkResetLink({ db, counters, token: request.body.token, meta: requestMeta(request) }),
  }));

  route(app, api.reset, async (request) => {
    await resetPassword({ db, sessions, counters, input: request.body, meta: requestMeta(request), log });
    return { message: PASSWORD_RESET_DONE };
  });
}
