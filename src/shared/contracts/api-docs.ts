import { z } from "zod";
import { endpoint } from "./endpoint.js";

/**
 * The API described for developers (issue 35): an OpenAPI 3.1 document generated from these contracts at start-up
 * (never written by hand), and an interactive reference that reads it. Both are for signed-in users (decision 048).
 */
export const apiDocsApi = {
  openapi: endpoint({
    method: "GET",
    path: "/api/openapi.json",
    access: "user",
    response: z.record(z.string(), z.unknown()),
  }),
  /** An HTML page (Swagger UI, served from the app itself: no outside script); a visitor is sent to sign in and back. */
  reference: endpoint({ method: "GET", path: "/api/docs", access: "user", response: z.null(), kind: "file", errorFormat: "page" }),
  /** The page's own script and style: Swagger UI's files and two of the app's, for the page's readers. */
  asset: endpoint({
    method: "GET",
    path: "/api/docs/:name",
    access: "user",
    params: z.object({ name: z.enum(["swagger-ui.css", "contrast.css", "swagger-ui-bundle.js", "start.js"]) }),
    response: z.null(),
    kind: "file",
  }),
};

/** A file of the reference page (`apiDocsApi.asset`). */
export type ReferenceAssetName = z.infer<typeof apiDocsApi.asset.params>["name"];
