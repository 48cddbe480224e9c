import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogLivePages } from "../../src/server/modules/catalog/catalog-pages.js";
import { catalogApi } from "../../src/shared/contracts/catalog.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import type { BootData } from "../../src/shared/prerender.js";
import { endpointUrl } from "../../src/web/lib/api-client.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

// Decision 060 (the new user's and the attacker's review): what the server answers for pages a person or a crawler
// opens. A certificate page whose code was never issued is a 404 (the page says "Certificate not found", the status
// says it too); a catalogue course's og:image is an address robots.txt lets crawlers fetch.

const ORIGIN = "https://learn.example.test";
// A stand-in for dist/web, so the test does not depend on a build having run (as static-web.test.ts does).
const webDist = mkdtempSync(path.join(tmpdir(), "web-dist-pages-"));
mkdirSync(path.join(webDist, "assets"));
writeFileSync(path.join(webDist, "index.html"), '<!doctype html><title>app shell</title><body><div id="root"></div></body>');

let t: TestApp;
let owner: CookieClient;
let ownerId: number;
beforeAll(async () => {
  t = await buildTestApp({ env: { WEB_DIST: webDist, PUBLIC_ORIGIN: ORIGIN } });
  const made = await registerAndSignIn(t.app, { name: "Olga Owner" });
  owner = made.client;
  ownerId = made.user.id;
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const anon = (url: string) => t.app.inject({ method: "GET", url });

async function publishedCourse(title: string): Promise<number> {
  const created = await owner.call(coursesApi.create, { body: { title, description: "", isPublic: true, status: "published" } });
  expect(created.status).toBe(201);
  return created.data.id;
}

describe("the certificate page (/certificates/<code>)", () => {
  it("answers 404 for a code nobody was given, 200 for an issued one, revoked or not, signed in or not", async () => {
    const courseId = await publishedCourse("Certified course");
    const code = "genuine-code-0001";
    await t.database.db.execute(
      sql`insert into certificates (code, course_id, user_id, learner_name, course_title, owner_name)
          values (${code}, ${courseId}, ${ownerId}, 'Lena', 'Certified course', 'Olga')`,
    );
    const { client: reader } = await registerAndSignIn(t.app);
    for (const who of ["visitor", "signed in"] as const) {
      const get = (url: string) => (who === "visitor" ? anon(url) : reader.get(url));
      for (const [url, status] of [
        [`/certificates/${code}`, 200],
        ["/certificates/nosuchcertificate", 404],
        ["/certificates/short", 404],
        ["/certificates/bad!code", 404],
      ] as const) {
        const res = await get(url);
        expect(res.statusCode, `${url} (${who})`).toBe(status);
        // Either way the page itself is sent: it draws "Certificate not found" in the site's frame, never indexed.
        expect(res.headers["content-type"], url).toContain("text/html");
        expect(res.headers["x-robots-tag"], url).toBe("noindex");
      }
    }
    await t.database.db.execute(sql`update certificates set revoked_at = now() where code = ${code}`);
    // A revoked certificate is still a page: it says it was revoked.
    expect((await anon(`/certificates/${code}`)).statusCode).toBe(200);
  });
});

/** Whether robots.txt (longest match wins, RFC 9309) lets a crawler fetch `target` (a path). */
function robotsAllow(robots: string, target: string): boolean {
  let best: { length: number; allow: boolean } = { length: -1, allow: true };
  for (const line of robots.split("\n")) {
    const rule = /^(Allow|Disallow):\s*(\S*)/.exec(line);
    if (!rule?.[2] || !target.startsWith(rule[2])) continue;
    const length = rule[2].length;
    const allow = rule[1] === "Allow";
    if (length > best.length || (length === best.length && allow)) best = { length, allow };
  }
  return best.allow;
}

describe("a catalogue course's og:image", () => {
  it("is an address robots.txt allows, serving the cover to anyone; the API's address still answers the same bytes", async () => {
    const courseId = await publishedCourse("Covered Heron");
    const module = await owner.ok(coursesApi.createModule, { params: { id: courseId }, body: { title: "Module" } });
    await owner.call(lessonsApi.create, { params: { id: module.id }, body: { title: "First", type: "reading", content: "Body" } });
    const upload = await owner.call(
      coursesApi.uploadCover,
      { params: { id: courseId } },
      { multipart: multipartFile("file", "c.png", "image/png", TINY_PNG) },
    );
    expect(upload.status).toBe(200);
    const [course] = (await callApp(t.app, catalogApi.list, { query: { q: "heron" } })).data.items;
    const slug = course?.slug ?? "";

    const boot = { platformSettings: { platformName: "Lumora" } } as BootData;
    const page = catalogLivePages({ db: t.database.db, origin: ORIGIN }).find((p) => p.pattern.test(`/catalog/${slug}`));
    const answer = await page?.load(`/catalog/${slug}`, new URLSearchParams(), boot);
    const image = answer?.kind === "page" ? answer.head.image : null;
    expect(image).toBe(`${ORIGIN}/catalog/${slug}/cover`);

    const robots = (await anon("/robots.txt")).body;
    const imagePath = new URL(image ?? ORIGIN).pathname;
    expect(robotsAllow(robots, imagePath), robots).toBe(true);
    // The checker itself: the API is closed to crawlers.
    const apiCover = endpointUrl(catalogApi.cover, { params: { slug } });
    expect(robotsAllow(robots, apiCover)).toBe(false);

    for (const url of [imagePath, apiCover]) {
      const cover = await anon(url);
      expect(cover.statusCode, url).toBe(200);
      expect(cover.headers["content-type"], url).toBe("image/png");
      expect(cover.rawPayload.equals(TINY_PNG), url).toBe(true);
    }
    // Only a listed course's cover: a private one, an unknown one or a malformed address is a 404, as at the API.
    expect((await owner.call(coursesApi.update, { params: { id: courseId }, body: { isPublic: false } })).status).toBe(200);
    expect((await anon(imagePath)).statusCode).toBe(404);
    expect((await anon("/catalog/nothing-999999/cover")).statusCode).toBe(404);
    expect((await anon("/catalog/Not_A_Slug/cover")).statusCode).toBe(404);
  });
});
