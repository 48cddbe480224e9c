import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiDocsApi } from "../../src/shared/contracts/api-docs.js";
import { fillPath } from "../../src/shared/contracts/endpoint.js";
import { callApp, rawAddress, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { contractEndpoints } from "../helpers/contract-endpoints.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Operation = {
  parameters?: { in: string; name: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
  security?: unknown[];
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");
/** The reference page (an HTML answer: its bytes, read raw). */
const referencePage = async (client: CookieClient) => (await client.call(apiDocsApi.reference, {})).response;

describe("GET /api/openapi.json (issue 35)", () => {
  it("needs a signed-in user, as the reference page does", async () => {
    expect((await callApp(t.app, apiDocsApi.openapi, {})).status).toBe(401);
  });

  it("sends a visitor who opens the reference page to sign in and back, not to a JSON refusal (decision 060)", async () => {
    // The page's address, and the same with a query the contract does not name (kept in the way back).
    const address = apiDocsApi.reference.path;
    for (const [url, next] of [
      [address, "/api/docs"],
      [`${address}?x=1`, "/api/docs?x=1"],
    ] as const) {
      const request = { ...requestFor(apiDocsApi.reference, {}), url };
      const visitor = await t.app.inject(request);
      expect(visitor.statusCode, url).toBe(303);
      expect(visitor.headers.location, url).toBe(`/login?next=${encodeURIComponent(next)}`);
      // A cookie that signs in nobody is a visitor too.
      const stale = await t.app.inject({ ...request, headers: { cookie: "sid=not-a-session" } });
      expect(stale.statusCode, url).toBe(303);
    }
    // The JSON document stays a JSON refusal: a program reads it, not a person.
    const document = await callApp(t.app, apiDocsApi.openapi, {});
    expect(document.status).toBe(401);
    expect(document.headers.location).toBeUndefined();
    const { client } = await registerAndSignIn(t.app);
    const page = await referencePage(client);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("is a valid OpenAPI 3.1 document listing every contract route with its request and answer schemas", async () => {
    const { client } = await registerAndSignIn(t.app);
    const response = await client.call(apiDocsApi.openapi, {});
    expect(response.status).toBe(200);
    const document = response.data as Document;
    expect(document.openapi).toBe("3.1.0");

    const result = await new Validator().validate(structuredClone(document) as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const endpoints = await contractEndpoints();
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Exactly the contracts: nothing undocumented, and no page or asset route in the API's document.
    expect(documented.sort()).toEqual(endpoints.map((e) => `${e.method} ${openApiPath(e.path)}`).sort());

    for (const endpoint of endpoints) {
      const operation = document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      const where = `${endpoint.method} ${endpoint.path}`;
      expect(operation, where).toBeDefined();
      if (!operation) continue;
      const success = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      expect(success.length, `${where} has a success answer`).toBeGreaterThan(0);
      expect(operation.responses["4XX"]?.content?.["application/json"]?.schema, `${where} describes its errors`).toBeDefined();
      if (endpoint.kind !== "empty")
        expect(
          success.some(([, answer]) => answer.content),
          `${where} describes its answer`,
        ).toBe(true);
      if (endpoint.body && !endpoint.upload)
        expect(operation.requestBody?.content["application/json"]?.schema, `${where} body`).toBeDefined();
      const pathNames = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      expect(
        operation.parameters
          ?.filter((p) => p.in === "path")
          .map((p) => p.name)
          .sort() ?? [],
        `${where} path parameters`,
      ).toEqual(pathNames.sort());
      expect(Boolean(operation.security), `${where} security`).toBe(endpoint.access !== "public");
    }
  });

  it("describes a route exactly as its contract checks it: required fields, enums and the paging header", async () => {
    const { client } = await registerAndSignIn(t.app);
    const document = (await client.ok(apiDocsApi.openapi, {})) as Document;
    const createChat = document.paths["/api/chats"]?.post;
    expect(createChat?.responses["201"]?.content?.["application/json"]?.schema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["id", "title"]),
    });
    const listChats = document.paths["/api/chats"]?.get;
    expect(Object.keys(listChats?.responses["200"]?.headers ?? {})).toContain("x-next-cursor");
    expect(listChats?.parameters?.some((p) => p.in === "query" && p.name === "limit")).toBe(true);
    expect(fillPath("/api/chats/:id", { id: 1 })).toBe("/api/chats/1");
  });

  it("describes the OpenAI-compatible endpoints as they are: a token only, OpenAI's error shape, whole or streamed", async () => {
    const { client } = await registerAndSignIn(t.app);
    const document = (await client.ok(apiDocsApi.openapi, {})) as Document & {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const [path, method, scope] of [
      ["/v1/models", "get", "models"],
      ["/v1/chat/completions", "post", "chat"],
      ["/v1/embeddings", "post", "chat"],
    ] as const) {
      const operation = document.paths[path]?.[method] as (Operation & { tags?: string[] }) | undefined;
      expect(operation?.security, path).toEqual([{ token: [scope] }]);
      expect(operation?.tags).toEqual(["openai-compatible"]);
      expect(operation?.responses["4XX"]?.content?.["application/json"]?.schema, path).toMatchObject({
        properties: { error: { required: ["message", "type", "param", "code"] } },
      });
    }
    const completions = document.paths["/v1/chat/completions"]?.post as Operation | undefined;
    expect(Object.keys(completions?.responses["200"]?.content ?? {}).sort()).toEqual(["application/json", "text/event-stream"]);
    expect(completions?.responses["200"]?.content?.["text/event-stream"]?.schema).toMatchObject({
      properties: { object: { enum: ["chat.completion.chunk"] } },
    });
  });

  it("the reference page loads Swagger UI from the app itself, under a strict policy", async () => {
    const { client } = await registerAndSignIn(t.app);
    const page = await referencePage(client);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");

    expect(page.body).not.toMatch(/https?:\/\//);
    const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(scripts.length).toBe(2);
    for (const src of scripts) {
      // Its files are the page's readers' alone, as the page is: a visitor's request for one is refused.
      const asset = await client.get(src);
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers["content-type"]).toContain("javascript");
      expect(asset.headers["cache-control"]).toBe("private, max-age=3600");
      expect((await t.app.inject({ method: "GET", url: src })).statusCode, src).toBe(401);
    }
    const styles = [...page.body.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(styles.length).toBe(2);
    for (const href of styles) expect((await client.get(href)).headers["content-type"], href).toContain("text/css");
    // Only the page's own files: another name is not one.
    expect((await client.get(rawAddress(apiDocsApi.asset, { name: "package.json" }))).statusCode).toBe(400);
  });
});
