import type { FastifyInstance } from "fastify";
import { authApi as api } from "../../../shared/contracts/auth.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { registerUser } from "../auth/auth-service.js";
import { assertIpBudget } from "../auth/login-throttle.js";
import { signIn } from "../auth/sign-in.js";
import { publicOrigin } from "../email/product-emails.js";
import { checkoutToken, clearCheckoutCookie } from "../payments/checkout-binding.js";
import { abandonCheckout, ownOpenCheckoutId } from "../payments/checkout-service.js";
import { finishPaidRegistration } from "../payments/finish-service.js";
import { toPublicUser } from "../sessions/public-user.js";

/**
 * POST /api/register: a free account from the form, or the end of a paid Early Access checkout (the
 * account fields were saved when the checkout started; the payment is verified with Stripe). Both sign in.
 */
export async function registrationRoutes(app: FastifyInstance) {
  const { db, sessions, counters, config, secrets, payments: gateway } = app.ctx;
  const loginUrl = `${publicOrigin(config)}/login`;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  route(app, api.register, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const body = request.body;
    if (body.planType === "earlyAccess") {
      const user = await finishPaidRegistration({
        db,
        sessions,
        secrets,
        gateway,
        token: checkoutToken(request),
        paymentIntentId: body.paymentIntentId,
        loginUrl,
        meta,
        log,
      });
      await signIn(request, reply, sessions, user.id);
      clearCheckoutCookie(request, reply);
      return toPublicUser(user);
    }
    // A visitor who started an Early Access checkout and chose Free instead: their checkout ends here.
    const ownCheckoutId = await ownOpenCheckoutId({ db, secrets, token: checkoutToken(request) });
    const user = await registerUser({ db, input: body, meta, loginUrl, log, ownCheckoutId });
    if (ownCheckoutId) {
      await abandonCheckout({ db, gateway, checkoutId: ownCheckoutId });
      clearCheckoutCookie(request, reply);
    }
    await signIn(request, reply, sessions, user.id);
    return toPublicUser(user);
  });
}
