import type { FastifyInstance } from "fastify";
import { publicContentApi as api } from "../../../shared/contracts/public-content.js";
import { route } from "../../lib/route.js";
import { getPublicPaymentSettings } from "../payments/settings-service.js";
import { getPublicPlatformSettings, listActiveVideos } from "./public-content-service.js";

/** Reads the sign-in and registration screens need before anyone is signed in. */
export async function publicContentRoutes(app: FastifyInstance) {
  const { db, config, payments: gateway } = app.ctx;
  route(app, api.paymentSettings, async () => getPublicPaymentSettings({ db, gateway }));
  route(app, api.platformSettings, async () => getPublicPlatformSettings({ db }));
  route(app, api.videos, async () => listActiveVideos({ db, extraEmbedHosts: config.VIDEO_EMBED_HOSTS }));
}
