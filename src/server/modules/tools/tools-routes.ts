import type { FastifyInstance } from "fastify";
import { toolsApi } from "../../../shared/contracts/tools.js";
import { route } from "../../lib/route.js";
import { listTools, type McpToolAccess } from "./tools-service.js";

/** The tools a user may switch on in a chat (issue 34). */
export async function toolsRoutes(app: FastifyInstance, options: { mcp: McpToolAccess }) {
  route(app, toolsApi.list, async (request) => listTools({ who: request.user, mcp: options.mcp }));
}
