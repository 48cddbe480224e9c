import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { PUBLIC_PAGES } from "../../shared/public-pages.js";

export interface SeoOptions {
  /** The site's public origin (PUBLIC_ORIGIN, else http://localhost:PORT), never a request header. */
  origin: string;
}

/** What crawlers should leave alone: the back office, the API and the signed-in app. */
const PRIVATE_PATHS = ["/admin", "/api/", "/dashboard", "/chat", "/settings", "/courses", "/personalities", "/checkout", "/reset-password"];

const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char] ?? char);

export function sitemapXml(origin: string): string {
  const urls = PUBLIC_PAGES.map((page) => `  <url><loc>${xmlEscape(`${origin}${page.path}`)}</loc></url>`);
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
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

/** /sitemap.xml (the public pages, shared/public-pages.ts) and /robots.txt (issue 13). */
export const seoPlugin = fp<SeoOptions>(async (app: FastifyInstance, options) => {
  const sitemap = sitemapXml(options.origin);
  const robots = robotsTxt(options.origin);
  app.get("/sitemap.xml", async (_request, reply) =>
    reply.header("Cache-Control", "public, max-age=3600").type("application/xml; charset=utf-8").send(sitemap),
  );
  app.get("/robots.txt", async (_request, reply) =>
    reply.header("Cache-Control", "public, max-age=3600").type("text/plain; charset=utf-8").send(robots),
  );
});
