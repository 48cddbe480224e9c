import type { FastifyInstance } from "fastify";
import { adminTokensApi, tokensApi } from "../../../shared/contracts/api-tokens.js";
import { route } from "../../lib/route.js";
import { createToken, listAllTokens, listTokens, revokeAnyToken, revokeToken } from "./tokens-service.js";

/** Personal API tokens (issue 35): a user's own, and the admins' view of all. */
export async function tokensRoutes(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db;
  route(app, tokensApi.create, async (request) => createToken({ db, who: request.user }, request.body));
  route(app, tokensApi.list, async (request) => listTokens({ db, who: request.user }));
  route(app, tokensApi.revoke, async (request) => revokeToken({ db, who: request.user }, request.params.id));
  route(app, adminTokensApi.list, async () => listAllTokens({ db }));
  route(app, adminTokensApi.revoke, async (request) => revokeAnyToken({ db }, request.params.id));
}
