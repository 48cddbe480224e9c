import type { FastifyInstance } from "fastify";
import { mcpServersApi as api } from "../../../shared/contracts/mcp-servers.js";
import { route } from "../../lib/route.js";
import {
  createMcpServer,
  deleteMcpServer,
  listMcpServers,
  refreshMcpServer,
  testMcpServer,
  updateMcpServer,
} from "./mcp-servers-service.js";

export async function mcpServerRoutes(app: FastifyInstance) {
  const { db, secrets, mcpLookup: lookup } = app.ctx;
  const deps = { secrets, lookup };

  route(app, api.list, async (request) => listMcpServers({ db, deps, who: request.user }));
  route(app, api.create, async (request) => createMcpServer({ db, deps, who: request.user, input: request.body }));
  route(app, api.test, async (request) => testMcpServer({ db, deps, who: request.user, input: request.body }));
  route(app, api.update, async (request) => updateMcpServer({ db, deps, who: request.user, id: request.params.id, input: request.body }));
  route(app, api.remove, async (request) => deleteMcpServer({ db, deps, who: request.user, id: request.params.id }));
  route(app, api.refresh, async (request) => refreshMcpServer({ db, deps, who: request.user, id: request.params.id }));
}
