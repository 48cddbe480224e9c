// The public course catalogue (issue 33, decision 044): the API (`GET /api/catalog?q=`, a course's landing JSON, its
// preview lesson, its cover), the pages the server renders for visitors at request time (/catalog, /catalog/:slug,
// /catalog/:slug/preview: their own head, their data in the HTML), the sitemap, and the owner's listing switch.
// Only public + published + listed courses of active owners ever show; nothing else leaks. Builds the web app with the
// prerender step into a temporary folder once (the render bundle the server uses lives there).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { courseSlug } from "../../src/shared/catalog-slug.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { catalogApi } from "../../src/shared/contracts/catalog.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { BOOT_DATA_ID } from "../../src/shared/prerender.js";
import { type CallInput, callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

const run = promisify(execFile);
const webDist = mkdtempSync(path.join(tmpdir(), "web-catalog-test-"));
const ORIGIN = "http://localhost:3000";

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let reader: CookieClient;
let other: { client: CookieClient; id: number };

interface Made {
  id: number;
  slug: string;
  lessonIds: number[];
}

/** A course of `client`'s with modules of lessons (`[["L1", "L2"], ["L3"]]`), in the given state. */
async function makeCourse(
  client: CookieClient,
  options: {
    title: string;
    description?: string;
    isPublic?: boolean;
    status?: "draft" | "published";
    modules?: string[][];
    content?: string;
  },
): Promise<Made> {
  const created = await client.call(coursesApi.create, {
    body: {
      title: options.title,
      description: options.description ?? "",
      isPublic: options.isPublic ?? true,
      status: options.status ?? "published",
    },
  });
  expect(created.status).toBe(201);
  const id = created.data.id;
  const lessonIds: number[] = [];
  for (const [index, lessons] of (options.modules ?? [["First lesson"]]).entries()) {
    const module = await client.call(coursesApi.createModule, { params: { id }, body: { title: `Module ${index + 1}` } });
    expect(module.status).toBe(201);
    for (const title of lessons) {
      const content = lessonIds.length === 0 ? (options.content ?? `# ${title}\n\nThe body of ${title}.`) : `Body of ${title}`;
      const lesson = await client.call(lessonsApi.create, { params: { id: module.data.id }, body: { title, type: "reading", content } });
      expect(lesson.status).toBe(201);
      lessonIds.push(lesson.data.id);
    }
  }
  return { id, slug: courseSlug(options.title, id), lessonIds };
}

/** A visitor's GET of a page or an address an answer gave (raw). */
const anon = (url: string) => t.app.inject({ method: "GET", url });
type CatalogQuery = CallInput<typeof catalogApi.list>["query"];
const catalog = (query: CatalogQuery = {}) => callApp(t.app, catalogApi.list, { query });
const landing = (slug: string) => callApp(t.app, catalogApi.get, { params: { slug } });
const preview = (slug: string) => callApp(t.app, catalogApi.preview, { params: { slug } });
const listOf = async (query: CatalogQuery = {}) => {
  const res = await catalog(query);
  expect(res.status, res.response.body).toBe(200);
  return res.data.items;
};
const titles = async (query: CatalogQuery = {}) => (await listOf(query)).map((course) => course.title);
const sitemap = async () => (await anon("/sitemap.xml")).body;

function bootReads(html: string): Record<string, unknown> {
  const match = new RegExp(`<script type="application/json" id="${BOOT_DATA_ID}">([^<]*)</script>`).exec(html);
  if (!match?.[1]) throw new Error("no boot data in the page");
  return (JSON.parse(match[1]) as { reads: Record<string, unknown> }).reads;
}
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'));

let listed: Made;
let hidden: Record<"privatePublished" | "publicDraft" | "unlisted" | "disabledOwner", Made>;

beforeAll(async () => {
  await run("npx", ["vite", "build", "--logLevel", "error", "--outDir", webDist]);
  await run("npx", ["tsx", "scripts/prerender.ts", "--outDir", webDist]);
  t = await buildTestApp({ env: { WEB_DIST: webDist } });
  admin = (await registerAndSignIn(t.app)).client;
  owner = (await registerAndSignIn(t.app, { name: "Ada Author" })).client;
  reader = (await registerAndSignIn(t.app)).client;
  const made = await registerAndSignIn(t.app, { name: "Gone Owner" });
  other = { client: made.client, id: made.user.id };

  listed = await makeCourse(owner, {
    title: "Intro to Zebrafish Genetics",
    description: "Stripes, genes and glowing fins.",
    modules: [["Why zebrafish", "Breeding"], ["Glowing fins"]],
  });
  hidden = {
    privatePublished: await makeCourse(owner, { title: "Secret Zebrafish Notes", isPublic: false }),
    publicDraft: await makeCourse(owner, { title: "Draft Zebrafish Plans", status: "draft" }),
    unlisted: await makeCourse(owner, { title: "Unlisted Zebrafish Club" }),
    disabledOwner: await makeCourse(other.client, { title: "Zebrafish of a Disabled Owner" }),
  };
  expect((await owner.call(coursesApi.update, { params: { id: hidden.unlisted.id }, body: { listedInCatalog: false } })).status).toBe(200);
  expect((await admin.call(adminUsersApi.update, { params: { id: other.id }, body: { status: "inactive" } })).status).toBe(200);
}, 240_000);
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const HIDDEN_TITLES = ["Secret Zebrafish Notes", "Draft Zebrafish Plans", "Unlisted Zebrafish Club", "Zebrafish of a Disabled Owner"];

describe("GET /api/catalog", () => {
  it("lists only public, published, listed courses of active owners, with slug, owner's name and lesson count", async () => {
    const courses = await listOf({ q: "zebrafish" });
    expect(courses.map((course) => course.title)).toEqual(["Intro to Zebrafish Genetics"]);
    expect(courses[0]).toEqual({
      id: listed.id,
      slug: `intro-to-zebrafish-genetics-${listed.id}`,
      title: "Intro to Zebrafish Genetics",
      description: "Stripes, genes and glowing fins.",
      cover: null,
      ownerName: "Ada Author",
      lessonCount: 3,
    });
    // Signed in (even the owner, even an admin), the catalogue is the same.
    for (const client of [reader, owner, admin]) {
      const res = await client.ok(catalogApi.list, { query: { q: "zebrafish" } });
      expect(res.items.map((course) => course.title)).toEqual(["Intro to Zebrafish Genetics"]);
    }
  });

  it("searches title and description, in any case, with % and _ taken literally", async () => {
    expect(await titles({ q: "GENETICS" })).toEqual(["Intro to Zebrafish Genetics"]);
    expect(await titles({ q: "glowing fins" })).toEqual(["Intro to Zebrafish Genetics"]);
    expect(await titles({ q: "%" })).toEqual([]);
    expect(await titles({ q: "_" })).toEqual([]);
    expect(await titles({ q: "nothing-like-this" })).toEqual([]);
    const long = await catalog({ q: "a".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.error.message).toBe("Search cannot exceed 200 characters");
  });

  it("pages newest first with limit and the x-next-cursor header", async () => {
    const made = [];
    for (const n of [1, 2, 3]) made.push(await makeCourse(owner, { title: `Paging Quokka ${n}` }));
    const first = await catalog({ q: "quokka", limit: 2 });
    expect(first.data.items.map((c) => c.title)).toEqual(["Paging Quokka 3", "Paging Quokka 2"]);
    const cursor = first.data.nextCursor;
    expect(cursor).toBe(String(made[1]?.id));
    const second = await catalog({ q: "quokka", limit: 2, cursor: cursor ?? undefined });
    expect(second.data.items.map((c) => c.title)).toEqual(["Paging Quokka 1"]);
    expect(second.headers["x-next-cursor"]).toBeUndefined();
    for (const bad of ["abc", "0", "-1", "99999999999"]) {
      const res = await catalog({ cursor: bad });
      expect(res.status, bad).toBe(400);
      expect(res.error.message).toBe("Invalid cursor");
    }
    expect((await catalog({ limit: 61 })).status).toBe(400);
  });
});

describe("a course's landing JSON, preview and cover", () => {
  it("answers the outline in order, the owner's name, the lesson count and that a preview exists", async () => {
    const res = await landing(listed.slug);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: listed.id,
      slug: listed.slug,
      title: "Intro to Zebrafish Genetics",
      ownerName: "Ada Author",
      lessonCount: 3,
      hasPreview: true,
      modules: [
        { title: "Module 1", lessons: [{ title: "Why zebrafish" }, { title: "Breeding" }] },
        { title: "Module 2", lessons: [{ title: "Glowing fins" }] },
      ],
    });
    expect(res.response.body).not.toMatch(/Body of|userId|content/);
  });

  it("finds the course by the id at the end of any slug, answering its current slug; junk is 400, unknown 404", async () => {
    expect((await landing(`old-title-${listed.id}`)).data.slug).toBe(listed.slug);
    expect((await landing(String(listed.id))).data.slug).toBe(listed.slug);
    const unknown = await landing("nothing-here-2147483000");
    expect(unknown.status).toBe(404);
    expect(unknown.error.message).toBe("Course not found");
    for (const junk of ["Not-A-Slug", "no-id-here", "x-0", "a-99999999999"]) {
      const res = await landing(junk);
      expect(res.status, junk).toBe(400);
      expect(res.error.message).toBe("Invalid course address");
    }
  });

  it("lets a visitor read the first lesson only; every other lesson still needs an account", async () => {
    const first = await preview(listed.slug);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({
      courseId: listed.id,
      courseTitle: "Intro to Zebrafish Genetics",
      slug: listed.slug,
      moduleTitle: "Module 1",
      title: "Why zebrafish",
      content: "# Why zebrafish\n\nThe body of Why zebrafish.",
      lessonCount: 3,
      sources: [],
    });
    for (const lessonId of listed.lessonIds) {
      const visitor = await callApp(t.app, lessonsApi.get, { params: { id: lessonId } });
      expect(visitor.status).toBe(401);
    }
    // A signed-in reader goes by the course rules as before.
    expect((await reader.call(lessonsApi.get, { params: { id: listed.lessonIds[1] ?? 0 } })).status).toBe(200);
  });

  it("names the sources the preview lesson numbers as [n] (name and page), never their passages", async () => {
    const course = await makeCourse(owner, { title: "Sourced Ibis", content: "Ibises wade [1] and nest [2]." });
    const lessonId = course.lessonIds[0] ?? 0;
    const source = { lessonId, courseId: course.id, passage: "THE OWNER'S PRIVATE PASSAGE" };
    await t.database.db.insert(lessonSources).values([
      { ...source, n: 1, kind: "file", fileName: "birds.pdf", page: 12 },
      { ...source, n: 2, kind: "message" },
    ]);
    const res = await preview(course.slug);
    expect(res.status).toBe(200);
    expect(res.data.sources).toEqual([
      { n: 1, name: "birds.pdf", page: 12 },
      { n: 2, name: "chat · message", page: null },
    ]);
    expect(res.response.body).not.toContain("PRIVATE PASSAGE");
    // The page written for visitors carries them in its data, no passage either.
    const page = await anon(`/catalog/${course.slug}/preview`);
    expect(page.body).toContain("birds.pdf");
    expect(page.body).not.toContain("PRIVATE PASSAGE");
  });

  it("has no preview when the first lesson opens later (drip) or the course has no lesson", async () => {
    const drip = await makeCourse(owner, { title: "Drip Pelican" });
    const dripLesson = { id: drip.lessonIds[0] ?? 0 };
    expect((await owner.call(lessonsApi.update, { params: dripLesson, body: { releaseAfterDays: 3 } })).status).toBe(200);
    expect((await landing(drip.slug)).data.hasPreview).toBe(false);
    const res = await preview(drip.slug);
    expect(res.status).toBe(404);
    expect(res.error.message).toBe("This course has no preview lesson");
    const empty = await makeCourse(owner, { title: "Empty Pelican", modules: [] });
    expect((await landing(empty.slug)).data).toMatchObject({ hasPreview: false, lessonCount: 0, modules: [] });
  });

  it("serves the cover to visitors through the catalogue only", async () => {
    const course = await makeCourse(owner, { title: "Covered Heron" });
    const upload = await owner.call(
      coursesApi.uploadCover,
      { params: { id: course.id } },
      { multipart: multipartFile("file", "c.png", "image/png", TINY_PNG) },
    );
    expect(upload.status).toBe(200);
    const [item] = await listOf({ q: "heron" });
    expect(item?.cover).toBe(`/api/catalog/${course.slug}/cover`);
    const cover = await anon(item?.cover ?? "");
    expect(cover.statusCode).toBe(200);
    expect(cover.headers["content-type"]).toBe("image/png");
    expect(cover.rawPayload.equals(TINY_PNG)).toBe(true);
    // The upload's own address still needs an account; a course without a cover has none to give.
    expect((await anon(upload.data.coverImage ?? "")).statusCode).toBe(401);
    expect((await callApp(t.app, catalogApi.cover, { params: { slug: listed.slug } })).status).toBe(404);
  });

  it("answers 404 for every hidden course, to every role, the owner included", async () => {
    for (const course of Object.values(hidden)) {
      for (const client of [null, reader, owner, admin]) {
        for (const endpoint of [catalogApi.get, catalogApi.preview, catalogApi.cover]) {
          const input = { params: { slug: course.slug } };
          const res = client ? await client.call(endpoint, input) : await callApp(t.app, endpoint, input);
          expect(res.status, `${endpoint.path} ${course.slug}`).toBe(404);
        }
      }
    }
  });
});

describe("the owner's switch", () => {
  it("takes listedInCatalog on the course update (owner only, a boolean), and the course answers it", async () => {
    const course = await makeCourse(owner, { title: "Switch Ibis" });
    const params = { id: course.id };
    expect((await owner.ok(coursesApi.get, { params })).listedInCatalog).toBe(true);
    const bad = await owner.call(coursesApi.update, { params, body: {} }, { rawBody: { listedInCatalog: "no" } });
    expect(bad.status).toBe(400);
    const signedOut = await callApp(t.app, coursesApi.update, { params, body: { listedInCatalog: false } });
    expect(signedOut.status).toBe(401);
    const notOwner = await reader.call(coursesApi.update, { params, body: { listedInCatalog: false } });
    expect(notOwner.status).toBe(403);
    expect(notOwner.error.message).toBe("You don't have permission to edit this course.");
    expect((await landing(course.slug)).status).toBe(200);
  });

  it("off: gone at once from the list, the landing JSON, the page (404) and the sitemap; still public to signed-in users", async () => {
    const course = await makeCourse(owner, { title: "Vanishing Egret" });
    const params = { id: course.id };
    expect(await titles({ q: "egret" })).toEqual(["Vanishing Egret"]);
    expect(await sitemap()).toContain(`${ORIGIN}/catalog/${course.slug}<`);
    expect((await anon(`/catalog/${course.slug}`)).statusCode).toBe(200);

    const off = await owner.ok(coursesApi.update, { params, body: { listedInCatalog: false } });
    expect(off.listedInCatalog).toBe(false);
    expect(await titles({ q: "egret" })).toEqual([]);
    expect((await landing(course.slug)).status).toBe(404);
    expect((await preview(course.slug)).status).toBe(404);
    const page = await anon(`/catalog/${course.slug}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain("Vanishing Egret");
    expect(page.body).toContain("Course not found");
    expect(await sitemap()).not.toContain(course.slug);
    expect((await reader.call(coursesApi.get, { params })).status).toBe(200);
    expect((await reader.call(lessonsApi.get, { params: { id: course.lessonIds[0] ?? 0 } })).status).toBe(200);

    await owner.ok(coursesApi.update, { params, body: { listedInCatalog: true } });
    expect(await titles({ q: "egret" })).toEqual(["Vanishing Egret"]);
  });
});

describe("the pages, rendered at request time for visitors", () => {
  it("/catalog carries its own title, description, og tags and canonical URL, with the courses and their data in the HTML", async () => {
    const res = await anon("/catalog");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers.vary).toMatch(/Cookie/);
    const html = res.body;
    expect(html).toContain("<title>Course catalog · Lumora</title>");
    expect(html).toMatch(/<meta name="description" content="Free and open courses on Lumora[^"]*" \/>/);
    expect(html).toContain('<meta property="og:title" content="Course catalog · Lumora" />');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/catalog" />`);
    expect(rootOf(html)).toContain("Intro to Zebrafish Genetics");
    expect(rootOf(html)).toContain(`href="/catalog/${listed.slug}"`);
    expect(bootReads(html)).toHaveProperty(["/api/catalog"]);
    for (const title of HIDDEN_TITLES) expect(html).not.toContain(title);
  });

  it("/catalog?q= renders the search's results, and says when nothing matches", async () => {
    const found = await anon("/catalog?q=genetics");
    expect(rootOf(found.body)).toContain("Intro to Zebrafish Genetics");
    expect(bootReads(found.body)).toHaveProperty(["/api/catalog?q=genetics"]);
    const none = await anon("/catalog?q=no-such-course");
    expect(none.statusCode).toBe(200);
    expect(rootOf(none.body)).toContain("No courses match");
    expect(rootOf(none.body)).not.toContain("Intro to Zebrafish Genetics");
  });

  it("/catalog/:slug carries the course's head (og:image from its cover) and its outline; an old slug moves (301)", async () => {
    const res = await anon(`/catalog/${listed.slug}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain("<title>Intro to Zebrafish Genetics · Course catalog · Lumora</title>");
    expect(html).toContain('<meta name="description" content="Stripes, genes and glowing fins." />');
    expect(html).toContain('<meta property="og:title" content="Intro to Zebrafish Genetics · Course catalog · Lumora" />');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/catalog/${listed.slug}" />`);
    expect(html).not.toContain("og:image");
    const root = rootOf(html);
    for (const text of ["Intro to Zebrafish Genetics", "Ada Author", "3 lessons", "Why zebrafish", "Glowing fins", "Start learning"])
      expect(root).toContain(text);
    expect(root).toContain(`href="/auth?tab=register&amp;next=${encodeURIComponent(`/courses/${listed.id}`)}"`);
    expect(bootReads(html)[`/api/catalog/${listed.slug}`]).toMatchObject({ id: listed.id, slug: listed.slug });

    const moved = await anon(`/catalog/zebrafish-${listed.id}`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/catalog/${listed.slug}`);

    const covered = (await listOf({ q: "heron" }))[0];
    const withCover = await anon(`/catalog/${covered?.slug}`);
    expect(withCover.body).toContain(`<meta property="og:image" content="${ORIGIN}/catalog/${covered?.slug}/cover" />`);
  });

  it("answers 404 with the not-found page for a hidden, unknown or malformed course", async () => {
    for (const url of [
      ...Object.values(hidden).flatMap((course) => [`/catalog/${course.slug}`, `/catalog/${course.slug}/preview`]),
      "/catalog/nothing-2147483000",
      "/catalog/Not_A_Slug",
    ]) {
      const res = await anon(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain("Course not found");
      for (const title of HIDDEN_TITLES) expect(res.body, url).not.toContain(title);
    }
  });

  it("/catalog/:slug/preview renders the first lesson's Markdown, sanitised as lessons are", async () => {
    const course = await makeCourse(owner, {
      title: "Hostile Cormorant",
      content: '## Safe heading\n\n<script>alert("x")</script><img src=x onerror="alert(1)">\n\n[click](javascript:alert(1))',
    });
    const res = await anon(`/catalog/${course.slug}/preview`);
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body).split('<script type="application/json"')[0] ?? "";
    expect(root).toMatch(/<h2[^>]*>Safe heading<\/h2>/);
    // Raw HTML stays text (escaped), a javascript: link loses its address: no element of the content can run script.
    expect(root).toContain("&lt;script&gt;");
    expect(root).not.toMatch(/<script|<img|<[^>]*\son[a-z]+=|href="javascript:/i);
    expect(res.body).toContain("<title>First lesson · Hostile Cormorant · Lumora</title>");
  });

  it("never serves the server's render bundle", async () => {
    for (const url of ["/ssr/entry-prerender.js", "/ssr/"]) expect((await anon(url)).statusCode, url).toBe(404);
  });

  it("sends a signed-in user the app shell, which reads the catalogue itself", async () => {
    const res = await reader.get(`/catalog/${listed.slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("Ada Author");
    expect(res.body).toContain('<div id="root"></div>');
  });
});

describe("/sitemap.xml", () => {
  it("lists the catalogue and each listed course's landing page, and nothing hidden", async () => {
    const body = await sitemap();
    expect(body).toContain(`<loc>${ORIGIN}/catalog</loc>`);
    expect(body).toContain(`<loc>${ORIGIN}/catalog/${listed.slug}</loc>`);
    for (const course of Object.values(hidden)) expect(body).not.toContain(`-${course.id}<`);
    expect(body).not.toMatch(/Secret|Draft Zebrafish|Unlisted/i);
  });
});
