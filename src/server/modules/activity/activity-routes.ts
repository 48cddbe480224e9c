import type { FastifyInstance } from "fastify";
import { activityApi as api } from "../../../shared/contracts/activity.js";
import { downloadBody } from "../../lib/download-stream.js";
import { route } from "../../lib/route.js";
import { listActivity } from "./activity-service.js";
import { activityCsv, exportFileName } from "./csv.js";

/** User activity (admin): the filtered log and its CSV export under /api/admin/user-activity-logs. */
export async function activityRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, api.list, async (request) => listActivity({ db, who: request.user, query: request.query }));

  route(app, api.exportCsv, async (request, reply) => {
    const who = request.user;
    const filters = request.query;
    // Pulled chunk by chunk: the next batch is read only when the socket has taken the previous one, after a turn of the loop.
    const body = downloadBody(activityCsv({ db, who, filters }));
    return reply
      .header("Content-Type", "text/csv; charset=utf-8")
      .header("Content-Disposition", `attachment; filename="${exportFileName(filters.tz)}"`)
      .header("Cache-Control", "no-store")
      .send(body);
  });
}
