import type { FastifyInstance } from "fastify";
import { adminVideosApi as api } from "../../../shared/contracts/admin-videos.js";
import { route } from "../../lib/route.js";
import { createVideo, deleteVideo, listVideos, reorderVideos, updateVideo } from "./videos-service.js";

/** Getting-started videos (admin): CRUD and reorder under /api/admin/getting-started-videos. */
export async function videoRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  const extraEmbedHosts = config.VIDEO_EMBED_HOSTS;

  route(app, api.list, async (request) => listVideos({ db, who: request.user, extraEmbedHosts }));
  route(app, api.create, async (request) => createVideo({ db, who: request.user, extraEmbedHosts, input: request.body }));
  route(app, api.update, async (request) =>
    updateVideo({ db, who: request.user, extraEmbedHosts, id: request.params.id, input: request.body }),
  );
  route(app, api.remove, async (request) => deleteVideo({ db, who: request.user, extraEmbedHosts, id: request.params.id }));
  route(app, api.reorder, async (request) => reorderVideos({ db, who: request.user, extraEmbedHosts, videoIds: request.body.videoIds }));
}
