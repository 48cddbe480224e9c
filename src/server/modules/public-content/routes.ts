import type { FastifyInstance } from "fastify";
import { getPublicPaymentSettings, getPublicPlatformSettings, listActiveVideos } from "./service.js";

/** Reads the sign-in and registration screens need before anyone is signed in. */
export async function publicContentRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  app.get("/api/payment-settings", async () => getPublicPaymentSettings(db));
  app.get("/api/platform-settings", async () => getPublicPlatformSettings(db));
  app.get("/api/getting-started-videos", async () => listActiveVideos({ db, extraEmbedHosts: config.VIDEO_EMBED_HOSTS }));
}
