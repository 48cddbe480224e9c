// Getting Started Videos (docs/product.md, Admin back office): admins list every video, add, edit, delete and reorder
// them; the rules and messages are the product's; orders stay 1..n; reorders are atomic and check the id set; only
// https players of allowed hosts are accepted; the public list keeps answering active videos only.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gettingStartedVideos } from "../../src/server/db/schema/index.js";
import { adminVideosApi, type VideoBody, type VideoPatchBody } from "../../src/shared/contracts/admin-videos.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

/** The admin address, for the malformed ids only (sent raw). */
const BASE = "/api/admin/getting-started-videos";
const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

let t: TestApp;
let admin: CookieClient;
let member: CookieClient;
beforeAll(async () => {
  t = await buildTestApp({ env: { VIDEO_EMBED_HOSTS: "videos.example.org" } });
  admin = (await registerAndSignIn(t.app)).client;
  member = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.delete(gettingStartedVideos);
});

const del = (client: CookieClient, url: string) => client.request({ method: "DELETE", url });
const list = async () => {
  const res = await admin.call(adminVideosApi.list, {});
  expect(res.status).toBe(200);
  return res.data;
};
const orders = async () => (await list()).map((v) => [v.title, v.order]);
async function add(body: Omit<VideoBody, "embedUrl"> & { embedUrl?: string }) {
  const res = await admin.call(adminVideosApi.create, { body: { embedUrl: YT, ...body } });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.response.body}`);
  return res.data;
}
/** A create with a body the contract does not allow, sent as it is. */
const addRaw = (rawBody: unknown, headers: Record<string, string> = {}) =>
  admin.call(adminVideosApi.create, { body: { title: "", embedUrl: YT } }, { rawBody, headers });
const edit = (id: number, body: VideoPatchBody) => admin.call(adminVideosApi.update, { params: { id }, body });
const reorder = (videoIds: number[]) => admin.call(adminVideosApi.reorder, { body: { videoIds } });

describe("who may call", () => {
  it("refuses every admin video call signed out (401) and for a non-admin (403), changing nothing", async () => {
    const video = await add({ title: "Welcome" });
    const visitor = new CookieClient(t.app);
    const calls = (client: CookieClient) => [
      client.call(adminVideosApi.list, {}),
      client.call(adminVideosApi.create, { body: { title: "Sneaky", embedUrl: YT } }),
      client.call(adminVideosApi.update, { params: { id: video.id }, body: { title: "Hijacked" } }),
      client.call(adminVideosApi.remove, { params: { id: video.id } }),
      client.call(adminVideosApi.reorder, { body: { videoIds: [video.id] } }),
    ];
    expect((await Promise.all(calls(visitor))).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    const refused = await Promise.all(calls(member));
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(refused[0]?.error.message).toBe("You don't have permission to access this area.");
    expect(await list()).toEqual([video]);
  });
});

describe("adding a video", () => {
  it("answers 201 with the saved video; subtitle and description optional, active by default, last by default", async () => {
    const first = await add({ title: "Welcome" });
    expect(first).toMatchObject({ title: "Welcome", subtitle: null, description: null, embedUrl: YT, order: 1, isActive: true });
    expect(first.playerUrl).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    const second = await add({ title: "  Your first chat  ", subtitle: "Two minutes", description: "Line one\nLine two", isActive: false });
    expect(second).toMatchObject({
      title: "Your first chat",
      subtitle: "Two minutes",
      description: "Line one\nLine two",
      order: 2,
      isActive: false,
    });
    const third = await add({ title: "Courses", subtitle: "", description: "" });
    expect(third).toMatchObject({ subtitle: null, description: null, order: 3 });
  });

  it("puts a video at the order asked for and moves the others down (orders stay 1..n)", async () => {
    await add({ title: "Vid A" });
    await add({ title: "Vid B" });
    await add({ title: "Vid C", order: 1 });
    expect(await orders()).toEqual([
      ["Vid C", 1],
      ["Vid A", 2],
      ["Vid B", 3],
    ]);
    // Past the end means last.
    expect((await add({ title: "Vid D", order: 99 })).order).toBe(4);
  });

  it("refuses each rule with the product's message, and allows the edge that passes", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: "ab" }, "title", "Title must be at least 3 characters"],
      [{ title: "   ab   " }, "title", "Title must be at least 3 characters"],
      [{ title: undefined }, "title", "Title must be at least 3 characters"],
      [{ title: 42 }, "title", "Title must be at least 3 characters"],
      [{ title: "Good", embedUrl: "not a url" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: "" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: undefined }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: "javascript:alert(document.cookie)" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: "JavaScript://%0aalert(1)" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: "data:text/html,<script>alert(1)</script>" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", embedUrl: "http://player.vimeo.com/video/1" }, "embedUrl", "Please enter a valid URL"],
      [{ title: "Good", order: 0 }, "order", "Order must be a positive integer"],
      [{ title: "Good", order: -2 }, "order", "Order must be a positive integer"],
      [{ title: "Good", order: 1.5 }, "order", "Order must be a positive integer"],
      [{ title: "Good", order: "abc" }, "order", "Order must be a positive integer"],
    ];
    for (const [over, field, message] of cases) {
      // Values the contract's type does not allow among them: each sent as it is.
      const res = await addRaw({ embedUrl: YT, ...over });
      expect({ over, status: res.status, message: res.error.message, field: res.error.errors?.[field] }).toEqual({
        over,
        status: 400,
        message,
        field: message,
      });
    }
    // An https address of a host that is no video player: refused with the reason, under the field.
    const host = await admin.call(adminVideosApi.create, { body: { title: "Good", embedUrl: "https://evil.example/embed/1" } });
    expect(host.status).toBe(400);
    expect(host.error.message).toMatch(/^Please enter a valid URL/);
    expect(host.error.errors?.embedUrl).toBe(host.error.message);
    expect(await list()).toEqual([]);

    // The edges that pass: three characters, a Vimeo, Loom, youtu.be or operator-allowed player, order 1.
    expect((await add({ title: "abc", order: 1 })).title).toBe("abc");
    for (const embedUrl of [
      "https://vimeo.com/76979871",
      "https://www.loom.com/share/abc123",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://videos.example.org/embed/7",
    ]) {
      expect((await add({ title: "Player", embedUrl })).playerUrl).not.toBeNull();
    }
  });

  it("never answers a 5xx to odd bodies", async () => {
    const bodies: unknown[] = [
      null,
      [],
      "text",
      { title: { $gt: "" }, embedUrl: YT },
      { title: "x".repeat(100_000), embedUrl: YT },
      { title: "Good", embedUrl: `https://www.youtube.com/${"a".repeat(5000)}` },
      { title: "Good", embedUrl: YT, order: 2 ** 40 },
      { title: "Good", embedUrl: YT, order: Number.MAX_SAFE_INTEGER },
      { title: "Good", embedUrl: YT, isActive: "yes" },
      { title: "Good", embedUrl: YT, subtitle: 12 },
      { title: "Good\u0000", embedUrl: YT, id: 999, playerUrl: "javascript:alert(1)" },
      { title: "Good", embedUrl: `${YT}\u0000`, subtitle: "a\u0000b", description: "\ud800 lone surrogate" },
      { title: "\ud83d\ude00\ud83d\ude00\ud83d\ude00", embedUrl: YT, description: "\ud800 lone surrogate" },
    ];
    for (const payload of bodies) {
      const res = await addRaw(JSON.stringify(payload), { "content-type": "application/json" });
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBeLessThan(500);
    }
    const garbage = await addRaw("{not json", { "content-type": "application/json" });
    expect(garbage.status).toBe(400);
    for (const id of ["abc", "0", "-1", "1.5", "99999999999", "1%3Bdrop", "null"]) {
      expect((await admin.patch(`${BASE}/${id}`, { title: "Good" })).statusCode).toBe(400);
      expect((await del(admin, `${BASE}/${id}`)).statusCode).toBe(400);
    }
    // Unknown keys are ignored: the id stays the server's.
    expect((await list()).every((v) => v.id !== 999)).toBe(true);
  });
});

describe("editing a video", () => {
  it("changes only what was sent, with the same rules", async () => {
    const video = await add({ title: "Welcome", subtitle: "Start here", description: "Hello" });
    const res = await edit(video.id, { isActive: false });
    expect(res.status).toBe(200);
    // The whole body as sent.
    expect(res.response.json()).toEqual({ ...video, isActive: false });
    const edited = await edit(video.id, { title: "Welcome aboard", subtitle: "", embedUrl: "https://vimeo.com/123" });
    expect(edited.data).toMatchObject({
      title: "Welcome aboard",
      subtitle: null,
      description: "Hello",
      embedUrl: "https://vimeo.com/123",
    });
    expect(edited.data.playerUrl).toBe("https://player.vimeo.com/video/123");

    const refused: [VideoPatchBody, string][] = [
      [{ title: "no" }, "Title must be at least 3 characters"],
      [{ embedUrl: "javascript:alert(1)" }, "Please enter a valid URL"],
      [{ order: 0 }, "Order must be a positive integer"],
    ];
    for (const [body, message] of refused) {
      const r = await edit(video.id, body);
      expect([r.status, r.error.message]).toEqual([400, message]);
    }
    expect((await edit(video.id, { embedUrl: "https://evil.example/x" })).status).toBe(400);
    expect((await list())[0]).toEqual(edited.data);
    const missing = await edit(2147483647, { title: "Nobody" });
    expect([missing.status, missing.error.message]).toEqual([404, "Video not found"]);
  });

  it("moves a video to a new order, the others closing up around it", async () => {
    const a = await add({ title: "Vid A" });
    await add({ title: "Vid B" });
    await add({ title: "Vid C" });
    expect((await edit(a.id, { order: 3 })).data.order).toBe(3);
    expect(await orders()).toEqual([
      ["Vid B", 1],
      ["Vid C", 2],
      ["Vid A", 3],
    ]);
    expect((await edit(a.id, { order: 50 })).data.order).toBe(3);
  });
});

describe("deleting a video", () => {
  it("answers 204, closes the gap, and 404 for an unknown one", async () => {
    await add({ title: "Vid A" });
    const b = await add({ title: "Vid B" });
    await add({ title: "Vid C" });
    const res = await admin.call(adminVideosApi.remove, { params: { id: b.id } });
    expect(res.status).toBe(204);
    expect(res.response.body).toBe("");
    expect(await orders()).toEqual([
      ["Vid A", 1],
      ["Vid C", 2],
    ]);
    const again = await admin.call(adminVideosApi.remove, { params: { id: b.id } });
    expect([again.status, again.error.message]).toEqual([404, "Video not found"]);
  });
});

describe("reordering", () => {
  it("applies the full sequence as orders 1..n and answers the list in its new order", async () => {
    const [a, b, c] = [await add({ title: "Vid A" }), await add({ title: "Vid B" }), await add({ title: "Vid C" })];
    const res = await reorder([c.id, a.id, b.id]);
    expect(res.status).toBe(200);
    expect(res.data.map((v) => [v.title, v.order])).toEqual([
      ["Vid C", 1],
      ["Vid A", 2],
      ["Vid B", 3],
    ]);
    expect(await orders()).toEqual([
      ["Vid C", 1],
      ["Vid A", 2],
      ["Vid B", 3],
    ]);
  });

  it("refuses a list that is not exactly the current videos (missing, extra, duplicate), changing nothing", async () => {
    const [a, b, c] = [await add({ title: "Vid A" }), await add({ title: "Vid B" }), await add({ title: "Vid C" })];
    const before = await list();
    const wrong = [
      [a.id, b.id],
      [a.id, b.id, c.id, 2147483647],
      [a.id, b.id, b.id],
      [a.id, b.id, b.id, c.id],
      [],
      [c.id, b.id, 2147483646],
    ];
    for (const videoIds of wrong) {
      const res = await reorder(videoIds);
      expect({ videoIds, status: res.status }).toEqual({ videoIds, status: 400 });
      expect(res.error.errors?.videoIds).toBe("Send every video exactly once");
    }
    // Bodies the contract's type does not allow: sent as they are.
    for (const body of [{}, { videoIds: "1,2" }, { videoIds: [0] }, { videoIds: ["a"] }, { videoIds: [1.5] }, { videoIds: null }]) {
      expect((await admin.call(adminVideosApi.reorder, { body: { videoIds: [] } }, { rawBody: body })).status).toBe(400);
    }
    expect(await list()).toEqual(before);
  });

  it("is atomic: a failure inside the transaction leaves the old order", async () => {
    const [a, b, c] = [await add({ title: "Vid A" }), await add({ title: "Vid B" }), await add({ title: "Vid C" })];
    const before = await list();
    // Make the second row's update fail half way through (a CHECK the renumbering breaks), then remove it.
    await t.database.db.execute(
      sql`alter table getting_started_videos add constraint no_b_first check (not (title = 'Vid B' and "order" = 1))`,
    );
    try {
      const res = await reorder([b.id, c.id, a.id]);
      expect(res.status).toBe(500);
      expect(await list()).toEqual(before);
    } finally {
      await t.database.db.execute(sql`alter table getting_started_videos drop constraint no_b_first`);
    }
  });

  it("two reorders in parallel leave one of them whole, with orders 1..n", async () => {
    const ids = [];
    for (const title of ["Vid A", "Vid B", "Vid C", "Vid D", "Vid E", "Vid F"]) ids.push((await add({ title })).id);
    const forward = [...ids];
    const backward = [...ids].reverse();
    const shifted = [...ids.slice(3), ...ids.slice(0, 3)];
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all([forward, backward, shifted].map((videoIds) => reorder(videoIds)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const now = await list();
      expect(now.map((v) => v.order)).toEqual([1, 2, 3, 4, 5, 6]);
      const sequence = now.map((v) => v.id);
      expect([forward, backward, shifted]).toContainEqual(sequence);
    }
  });

  it("a reorder racing an add either includes the new video or is refused, never half applied", async () => {
    const ids = [];
    for (const title of ["Vid A", "Vid B", "Vid C"]) ids.push((await add({ title })).id);
    const [reordered, created] = await Promise.all([
      reorder([...ids].reverse()),
      admin.call(adminVideosApi.create, { body: { title: "New", embedUrl: YT } }),
    ]);
    expect(created.status).toBe(201);
    expect([200, 400]).toContain(reordered.status);
    expect((await list()).map((v) => v.order)).toEqual([1, 2, 3, 4]);
  });
});

describe("the public list", () => {
  it("never shows inactive videos, and follows the admin's order", async () => {
    const a = await add({ title: "Alpha" });
    const b = await add({ title: "Beta", isActive: false });
    const c = await add({ title: "Gamma" });
    const publicTitles = async () => (await callApp(t.app, publicContentApi.videos, {})).data.map((v) => v.title);
    expect(await publicTitles()).toEqual(["Alpha", "Gamma"]);
    await reorder([c.id, b.id, a.id]);
    expect(await publicTitles()).toEqual(["Gamma", "Alpha"]);
    await edit(b.id, { isActive: true });
    await edit(c.id, { isActive: false });
    expect(await publicTitles()).toEqual(["Beta", "Alpha"]);
    // The admin list shows every video.
    expect((await list()).map((v) => v.title)).toEqual(["Gamma", "Beta", "Alpha"]);
  });
});
