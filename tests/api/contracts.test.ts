import Fastify from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { route } from "../../src/server/lib/route.js";
import { endpoint } from "../../src/shared/contracts/endpoint.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { contractEndpoints } from "../helpers/contract-endpoints.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("contracts", () => {
  it("every registered /api route has a response schema for its success and for failures", () => {
    const routes = t.app.apiRoutes.filter((r) => r.method !== "HEAD");
    expect(routes.length).toBeGreaterThan(60);
    const without = routes.filter((r) => !r.statuses.some((s) => /^2\d\d$/.test(s)) || !r.statuses.includes("4xx"));
    expect(without.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("every route comes from a contract, and every contract is served", async () => {
    const contracts = (await contractEndpoints()).map((e) => `${e.method} ${e.path}`).sort();
    const served = t.app.apiRoutes
      .filter((r) => r.method !== "HEAD")
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(new Set(contracts).size).toBe(contracts.length);
    expect(served).toEqual(contracts);
  });

  it("every endpoint declares who may call it, and the public and plan-bound ones are exactly these", async () => {
    const endpoints = await contractEndpoints();
    const name = (e: { method: string; path: string }) => `${e.method} ${e.path}`;
    const undeclared = endpoints.filter((e) => !["public", "user", "earlyAccess", "admin", "token"].includes(e.access as string));
    expect(undeclared.map(name)).toEqual([]);
    // The OpenAI-compatible endpoints (decision 051): exactly these, a token's alone, each with its scope, failing in
    // OpenAI's shape; and nothing else takes only tokens or OpenAI's shape.
    const openAi = endpoints.filter((e) => e.path.startsWith("/v1/"));
    expect(openAi.map(name).sort()).toEqual(["GET /v1/models", "POST /v1/chat/completions", "POST /v1/embeddings"]);
    expect(openAi.map((e) => [name(e), e.access, e.errorFormat, e.tokenScope]).sort()).toEqual([
      ["GET /v1/models", "token", "openai", "models"],
      ["POST /v1/chat/completions", "token", "openai", "chat"],
      ["POST /v1/embeddings", "token", "openai", "chat"],
    ]);
    expect(endpoints.filter((e) => !e.path.startsWith("/v1/") && (e.access === "token" || e.errorFormat === "openai")).map(name)).toEqual(
      [],
    );
    // The back office is for admins only, whatever else its contract says.
    expect(endpoints.filter((e) => e.path.startsWith("/api/admin/") && e.access !== "admin").map(name)).toEqual([]);
    // A new public endpoint is a decision: it must be added here, by hand.
    expect(
      endpoints
        .filter((e) => e.access === "public")
        .map(name)
        .sort(),
    ).toEqual(
      [
        "GET /api/catalog",
        "GET /api/catalog/:slug",
        "GET /api/catalog/:slug/cover",
        "GET /api/catalog/:slug/preview",
        "GET /api/certificates/:code",
        "GET /api/early-access/checkout",
        "GET /api/early-access/registration",
        "GET /api/getting-started-videos",
        "GET /api/payment-settings",
        "GET /api/platform-settings",
        "GET /api/session",
        "GET /api/shares/:token",
        "POST /api/contact",
        "POST /api/create-payment-intent",
        "POST /api/early-access/checkout/cancel",
        "POST /api/forgot-password",
        "POST /api/login",
        "POST /api/logout",
        "POST /api/register",
        "POST /api/reset-password",
        "POST /api/reset-password/check",
        "POST /api/stripe/webhook",
      ].sort(),
    );
    const plan = endpoints.filter((e) => e.access === "earlyAccess");
    expect(plan.filter((e) => !e.feature).map(name)).toEqual([]);
    expect(plan.filter((e) => e.path.startsWith("/api/personalities")).every((e) => e.feature === "personalities")).toBe(true);
    // Every registered route carries its contract's access on its config (what the route's own check reads).
    const routes = t.app.apiRoutes.filter((r) => r.method !== "HEAD");
    expect(routes.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("sends the signed-in user without anything the contract does not name", async () => {
    const { client } = await registerAndSignIn(t.app);
    // The keys as sent: the contract's parse would drop any other.
    const me = (await client.call(userApi.me, {})).response.json();
    expect(Object.keys(me).sort()).toEqual(["avatarUrl", "createdAt", "email", "id", "name", "planType", "role", "username"]);
  });
});

describe("route()", () => {
  const secretive = endpoint({
    method: "GET",
    path: "/api/probe/:id",
    access: "public",
    params: z.object({ id: z.coerce.number().int() }),
    response: z.object({ id: z.number().int(), name: z.string(), nested: z.object({ shown: z.boolean() }) }),
  });

  async function probeApp(check: boolean, answer: (id: number) => unknown) {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.decorate("ctx", { config: testConfig({ CHECK_RESPONSES: check ? "true" : "false" }) } as never);
    route(app, secretive, async (request) => answer(request.params.id) as never);
    await app.ready();
    return app;
  }

  it("drops keys the contract does not name, at every depth (compiled serialisation)", async () => {
    const app = await probeApp(false, (id) => ({ id, name: "x", passwordHash: "$argon2id$...", nested: { shown: true, apiKey: "sk-1" } }));
    const res = await callApp(app, secretive, { params: { id: 7 } });
    expect(res.status).toBe(200);
    // The bytes on the wire.
    expect(res.response.body).toBe('{"id":7,"name":"x","nested":{"shown":true}}');
    await app.close();
  });

  it("drops unnamed keys inside a nullable object too, instead of failing", async () => {
    const nullable = endpoint({
      method: "GET",
      path: "/api/probe-nullable",
      access: "public",
      response: z.object({ run: z.object({ id: z.number().int() }).nullable() }),
    });
    const app = Fastify({ logger: false });
    app.decorate("ctx", { config: testConfig({ CHECK_RESPONSES: "false" }) } as never);
    route(app, nullable, async () => ({ run: { id: 1, owner: "instance-secret" } }) as never);
    await app.ready();
    const res = await callApp(app, nullable, {});
    expect(res.status).toBe(200);
    expect(res.response.body).toBe('{"run":{"id":1}}');
    await app.close();
  });

  it("refuses bad params with 400 before the handler runs", async () => {
    const app = await probeApp(true, () => {
      throw new Error("must not run");
    });
    // An id the contract's type does not allow: the malformed path sent raw.
    expect((await app.inject({ method: "GET", url: "/api/probe/abc" })).statusCode).toBe(400);
    await app.close();
  });

  it("under CHECK_RESPONSES, an answer outside its contract fails instead of being coerced", async () => {
    const app = await probeApp(true, (id) => ({ id: String(id), name: "x", nested: { shown: true } }));
    const res = await callApp(app, secretive, { params: { id: 7 } });
    expect(res.status).toBe(500);
    await app.close();
  });
});
