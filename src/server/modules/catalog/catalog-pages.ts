import { catalogCoverPath, courseIdOfSlug } from "../../../shared/catalog-slug.js";
import { catalogListQuerySchema } from "../../../shared/contracts/catalog.js";
import { catalogAddresses } from "../../../shared/contracts/catalog-address.js";
import { fillPath, queryString } from "../../../shared/contracts/endpoint.js";
import { cutText } from "../../../shared/cut-text.js";
import type { BootData } from "../../../shared/prerender.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { LivePage, LivePageAnswer } from "../../plugins/server-rendered-pages.js";
import { getCatalogCourse, getCatalogPreview, listCatalog } from "./catalog-service.js";

/** The catalogue's pages (`paths.catalog`, `paths.catalogCourseRoute`, `paths.catalogPreviewRoute` in web/lib/paths.ts). */
const LIST = /^\/catalog$/;
const COURSE = /^\/catalog\/([^/]+)$/;
const PREVIEW = /^\/catalog\/([^/]+)\/preview$/;
const CATALOG_TITLE = "Course catalog";

/** The tab's title as the page names itself (`usePageTitle(...)`, composed by web/lib/page-title.ts: "A · B · Lumora"). */
const title = (boot: BootData, ...parts: string[]) => [...parts, boot.platformSettings.platformName].join(" · ");

/** At most 160 characters of text, on one line, for a meta description. */
function summary(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? cutText(line, 157) : line;
}

/** The URL a page's first read is made at (`endpointUrl()` in web/lib/api-client.ts): the key of its answer. */
const readUrl = (path: string, params?: Record<string, unknown>, query?: Record<string, unknown>) =>
  fillPath(path, params) + queryString(query);

const notFound = (boot: BootData, canonical: string, key: string): LivePageAnswer => ({
  kind: "page",
  status: 404,
  head: { title: title(boot, "Course not found"), description: "This course is not in the catalog.", canonical },
  reads: { [key]: null },
});

/**
 * The catalogue's pages for visitors (issue 33, decision 044), rendered at request time with their data read here, the
 * same reads the page makes in the browser (so it hydrates without asking again): the list (with `?q=`), a course's
 * landing page, and its preview lesson. An address with an older title in its slug moves (301) to the current one.
 */
export function catalogLivePages(options: { db: Db; origin: string }): LivePage[] {
  const { db, origin } = options;
  return [
    {
      pattern: LIST,
      async load(_pathname, search, boot) {
        const parsed = catalogListQuerySchema.safeParse({ q: search.get("q") ?? undefined });
        const q = parsed.success ? parsed.data.q || undefined : undefined;
        const key = readUrl(catalogAddresses.list.path, undefined, q ? { q } : undefined);
        const page = parsed.success ? await listCatalog({ db, query: parsed.data }) : { items: [], nextCursor: null };
        return {
          kind: "page",
          status: 200,
          head: {
            title: title(boot, CATALOG_TITLE),
            description: `Free and open courses on ${boot.platformSettings.platformName}: browse, read a first lesson, and start learning.`,
            canonical: `${origin}/catalog`,
          },
          reads: { [key]: page },
        };
      },
    },
    {
      pattern: COURSE,
      async load(pathname, _search, boot) {
        const slug = COURSE.exec(pathname)?.[1] ?? "";
        const key = readUrl(catalogAddresses.get.path, { slug });
        const canonical = `${origin}${pathname}`;
        if (courseIdOfSlug(slug) === null) return notFound(boot, canonical, key);
        try {
          const course = await getCatalogCourse({ db, slug });
          if (course.slug !== slug) return { kind: "redirect", location: `/catalog/${course.slug}` };
          const lessons = `${course.lessonCount} ${course.lessonCount === 1 ? "lesson" : "lessons"}`;
          return {
            kind: "page",
            status: 200,
            head: {
              title: title(boot, course.title, CATALOG_TITLE),
              description: summary(course.description) || `A course by ${course.ownerName}: ${lessons}.`,
              canonical,
              image: course.cover ? `${origin}${catalogCoverPath(course.slug)}` : null,
            },
            reads: { [key]: course },
          };
        } catch (error) {
          if (error instanceof AppError && error.code === "NOT_FOUND") return notFound(boot, canonical, key);
          throw error;
        }
      },
    },
    {
      pattern: PREVIEW,
      async load(pathname, _search, boot) {
        const slug = PREVIEW.exec(pathname)?.[1] ?? "";
        const key = readUrl(catalogAddresses.preview.path, { slug });
        const canonical = `${origin}${pathname}`;
        if (courseIdOfSlug(slug) === null) return notFound(boot, canonical, key);
        try {
          const preview = await getCatalogPreview({ db, slug });
          if (preview.slug !== slug) return { kind: "redirect", location: `/catalog/${preview.slug}/preview` };
          return {
            kind: "page",
            status: 200,
            head: {
              title: title(boot, preview.title, preview.courseTitle),
              description: summary(`A free first lesson of ${preview.courseTitle}: ${preview.title}.`),
              canonical,
            },
            reads: { [key]: preview },
          };
        } catch (error) {
          if (error instanceof AppError && error.code === "NOT_FOUND") return notFound(boot, canonical, key);
          throw error;
        }
      },
    },
  ];
}
