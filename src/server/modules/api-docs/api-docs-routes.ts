import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { apiDocsApi, type ReferenceAssetName } from "../../../shared/contracts/api-docs.js";
import { route } from "../../lib/route.js";
import { REFERENCE_ASSETS, REFERENCE_CONTENT_SECURITY_POLICY, referencePage } from "./reference-page.js";

const swaggerUiDir = () => path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** `/api/openapi.json`, `/api/docs`, and the reference's own script and style (served from the app, never a CDN). */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  route(app, apiDocsApi.openapi, async () => app.swagger() as unknown as Record<string, unknown>);

  route(app, apiDocsApi.reference, async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", REFERENCE_CONTENT_SECURITY_POLICY)
      .header("cache-control", "no-store")
      .send(referencePage()),
  );

  const files = new Map<ReferenceAssetName, { body: Buffer | string; type: string }>();
  const fileFor = (name: ReferenceAssetName) => {
    let file = files.get(name);
    if (!file) {
      const asset = REFERENCE_ASSETS[name];
      file = { body: "text" in asset ? asset.text : readFileSync(path.join(swaggerUiDir(), asset.file)), type: asset.type };
      files.set(name, file);
    }
    return file;
  };
  // For signed-in readers, as the page is: kept an hour by their own browser only.
  route(app, apiDocsApi.asset, async (request, reply) => {
    const file = fileFor(request.params.name);
    return reply.type(file.type).header("cache-control", "private, max-age=3600").send(file.body);
  });
}
