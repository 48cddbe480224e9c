import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { PUBLIC_PAGES } from "../../shared/public-pages.js";

export interface SeoOptions {
  /** The site's public origin (PUBLIC_ORIGIN, else http://localhost:PORT), never a request header. */
  origin: string;
  /** The slugs of the courses in the public catalogue now (issue 33), read for each /sitemap.xml. */
  catalogSlugs: () => Promise<string[]>;
}

/** The public catalogue's list page (`paths.catalog` in web/lib/paths.ts); each course's page is `/catalog/<slug>`. */
export const CATALOG_PATH = "/catalog";

/** What crawlers should leave alone: the back office, the API and the signed-in app. */
const PRIVATE_PATHS = ["/admin", "/api/", "/dashboard", "/chat", "/settings", "/courses", "/personalities", "/checkout", "/reset-password"];

const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char] ?? char);

export function sitemapXml(origin: string, catalogSlugs: readonly string[] = []): string {
  const paths = [...PUBLIC_PAGES.map((page) => page.path), CATALOG_PATH, ...catalogSlugs.map((slug) => `${CATALOG_PATH}/${slug}`)];
  const urls = paths.map((path) => `  <url><loc>${xmlEscape(`${origin}${path}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    ...PUBLIC_PAGES.map((page) => `Allow: ${page.path}`),
    `Allow: ${CATALOG_PATH}`,
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

/**
 * /sitemap.xml (the public pages, shared/public-pages.ts, the catalogue and each of its courses, read at each request so
 * an unlisted course leaves it at once) and /robots.txt (issue 13).
 */
export const seoPlugin = fp<SeoOptions>(async (app: FastifyInstance, options) => {
  const robots = robotsTxt(options.origin);
  app.get("/sitemap.xml", async (_request, reply) => {
    const sitemap = sitemapXml(options.origin, await options.catalogSlugs());
    return reply.header("Cache-Control", "no-cache").type("application/xml; charset=utf-8").send(sitemap);
  });
  app.get("/robots.txt", async (_request, reply) =>
    reply.header("Cache-Control", "public, max-age=3600").type("text/plain; charset=utf-8").send(robots),
  );
});
