import type { FastifyInstance } from "fastify";
import { planAllowancesApi, planStorageLimitsApi, usageApi } from "../../../shared/contracts/usage.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { getPlanAllowances, getPlanStorageLimits, updatePlanAllowances, updatePlanStorageLimits } from "./allowances-service.js";
import { readUsage } from "./read-usage.js";

/** GET /api/usage (signed in) and the plan limits (admins: GET and PUT /api/admin/plan-allowances). */
export async function usageRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, usageApi.mine, async (request) => readUsage({ db, who: request.user }));
  route(app, planAllowancesApi.get, async () => getPlanAllowances({ db }));
  route(app, planAllowancesApi.update, async (request) =>
    updatePlanAllowances({ db, who: request.user, meta: requestMeta(request), input: request.body }),
  );
  route(app, planStorageLimitsApi.get, async () => getPlanStorageLimits({ db }));
  route(app, planStorageLimitsApi.update, async (request) =>
    updatePlanStorageLimits({ db, who: request.user, meta: requestMeta(request), input: request.body }),
  );
}
