import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gettingStartedVideos, paymentSettings } from "../../src/server/db/schema/index.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { VIDEO_EMBED_HOSTS: "videos.example.org" } });
});
afterAll(async () => {
  await t.close();
});

/** The visitor's read, unparsed: compared whole, so a stored field the answer must not carry would show. */
const paymentSettingsAsSent = async () => (await callApp(t.app, publicContentApi.paymentSettings, {})).response.json();
const videos = () => callApp(t.app, publicContentApi.videos, {});

describe("GET /api/payment-settings", () => {
  it("falls back to USD 297, then reflects the stored settings", async () => {
    expect(await paymentSettingsAsSent()).toEqual({
      currency: "USD",
      earlyAccessPrice: "297",
      paymentsAvailable: false,
      publishableKey: null,
    });
    await t.database.db.insert(paymentSettings).values({ earlyAccessPrice: "149.50", currency: "eur", stripePriceId: "price_secret" });
    expect(await paymentSettingsAsSent()).toEqual({
      currency: "EUR",
      earlyAccessPrice: "149.50",
      paymentsAvailable: false,
      publishableKey: null,
    });
    await t.database.db.delete(paymentSettings);
  });
});

describe("GET /api/getting-started-videos", () => {
  it("lists only active videos with allowed https players, in order", async () => {
    expect((await videos()).data).toEqual([]);
    await t.database.db.insert(gettingStartedVideos).values([
      { title: "Second", embedUrl: "https://player.vimeo.com/video/123", order: 2 },
      { title: "First", subtitle: "Start here", embedUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", order: 1 },
      { title: "Hidden", embedUrl: "https://www.loom.com/embed/abc", order: 3, isActive: false },
      { title: "Plain http", embedUrl: "http://player.vimeo.com/video/1", order: 4 },
      { title: "Script", embedUrl: "javascript:alert(1)", order: 5 },
      { title: "Other host", embedUrl: "https://evil.example/embed", order: 6 },
      { title: "Allowed extra", embedUrl: "https://videos.example.org/embed/7", order: 7 },
    ]);
    const res = await videos();
    expect(res.status).toBe(200);
    const titles = res.data.map((v) => v.title);
    expect(titles).toEqual(["First", "Second", "Allowed extra"]);
    expect(res.data[0]).toMatchObject({
      subtitle: "Start here",
      embedUrl: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
      isActive: true,
    });
  });
});
