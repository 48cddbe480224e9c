import type { FastifyInstance } from "fastify";
import { adminPaymentsApi as admin, paymentsApi as api } from "../../../shared/contracts/payments.js";
import { AppError } from "../../lib/app-error.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { assertIpBudget } from "../auth/login-throttle.js";
import { publicOrigin } from "../email/product-emails.js";
import { toPublicUser } from "../sessions/public-user.js";
import { checkoutToken, clearCheckoutCookie, setCheckoutCookie } from "./checkout-binding.js";
import { readCheckoutStatus, resumeRegistrationCheckout, startRegistrationCheckout, startUpgradeCheckout } from "./checkout-service.js";
import { finishUpgrade } from "./finish-service.js";
import { cancelRegistrationCheckout, readOwnRegistration } from "./own-checkout-service.js";
import { askForSecrets, checkSecrets } from "./secrets-service.js";
import { getAdminPaymentSettings, savePaymentSettings } from "./settings-service.js";
import { listUnfinishedPayments, resolveUnfinishedPayment } from "./unfinished-service.js";
import { receiveWebhook } from "./webhook-service.js";

/** The Early Access checkout, Stripe's webhook, the secrets calls and the Payment Settings page. */
export async function paymentRoutes(app: FastifyInstance) {
  const { db, secrets, sessions, counters, config, payments: gateway } = app.ctx;
  const loginUrl = `${publicOrigin(config)}/login`;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  route(app, api.createPaymentIntent, async (request, reply) => {
    const registration = request.body;
    if (request.user) {
      if (registration) throw new AppError("BAD_REQUEST", "You are signed in: sign out to register another account.");
      const { clientSecret, paymentIntentId } = await startUpgradeCheckout({ db, secrets, gateway, who: request.user });
      return { clientSecret, paymentIntentId };
    }
    const token = checkoutToken(request);
    if (!registration) {
      const { clientSecret, paymentIntentId } = await resumeRegistrationCheckout({ db, secrets, gateway, token });
      return { clientSecret, paymentIntentId };
    }
    // It hashes a password, like registration: the same per-IP budget.
    const { ip } = requestMeta(request);
    await assertIpBudget(counters, ip);
    const started = await startRegistrationCheckout({ db, secrets, gateway, counters, token, ip, input: registration });
    if (started.bindingToken) setCheckoutCookie(request, reply, started.bindingToken);
    return { clientSecret: started.clientSecret, paymentIntentId: started.paymentIntentId };
  });

  route(app, api.checkoutStatus, async (request) =>
    readCheckoutStatus({
      db,
      secrets,
      who: request.user ?? null,
      token: checkoutToken(request),
      paymentIntentId: request.query.paymentIntentId,
    }),
  );

  route(app, api.ownRegistration, async (request) => readOwnRegistration({ db, secrets, token: checkoutToken(request) }));

  route(app, api.cancelCheckout, async (request, reply) => {
    await cancelRegistrationCheckout({ db, secrets, gateway, token: checkoutToken(request) });
    clearCheckoutCookie(request, reply);
    return null;
  });

  route(app, api.completeUpgrade, async (request) => {
    const who = request.user;
    const user = await finishUpgrade({
      db,
      sessions,
      gateway,
      who,
      paymentIntentId: request.body.paymentIntentId,
      loginUrl,
      meta: requestMeta(request),
      log,
    });
    return toPublicUser(user);
  });

  route(app, api.checkSecrets, async (request) => checkSecrets({ gateway, names: request.body.secretKeys }));

  route(app, api.askSecrets, async (request) =>
    askForSecrets({
      db,
      gateway,
      names: request.body.secret_keys,
      userMessage: request.body.user_message,
      origin: publicOrigin(config),
    }),
  );

  route(app, admin.get, async () => getAdminPaymentSettings({ db, gateway }));
  route(app, admin.create, async (request) => savePaymentSettings({ db, secrets, gateway, input: request.body, mode: "create" }));
  route(app, admin.update, async (request) => savePaymentSettings({ db, secrets, gateway, input: request.body, mode: "update" }));
  route(app, admin.unfinished, async () => listUnfinishedPayments(db));
  route(app, admin.resolveUnfinished, async (request) => resolveUnfinishedPayment(db, request.params.id));

  // Stripe's calls: only this route reads its body raw (the signature is over the exact bytes).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    route(scope, api.webhook, async (request) => {
      const signature = request.headers["stripe-signature"];
      return receiveWebhook({
        db,
        sessions,
        gateway,
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        signature: typeof signature === "string" ? signature : undefined,
        loginUrl,
        meta: requestMeta(request),
        log,
        warn: (message) => app.log.warn(message),
      });
    });
  });
}
