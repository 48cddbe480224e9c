import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BootData, bootDataScript, escapeHtml, SSR_DIR, SSR_ENTRY } from "../../shared/prerender.js";

/** The head of a page rendered at request time: its own title, description, Open Graph and canonical address. */
export interface LivePageHead {
  title: string;
  description: string;
  /** Absolute URLs. */
  canonical: string;
  image?: string | null;
}

/**
 * What a live page's loader answers for one address (issue 33): the page (its status, head, and the public API's answers
 * its first render reads, by URL), a permanent move (an old course address), or null when the plugin should go on as
 * for any other address.
 */
export type LivePageAnswer =
  | { kind: "page"; status: 200 | 404; head: LivePageHead; reads: Record<string, unknown> }
  | { kind: "redirect"; location: string };

/** A page the server renders at request time with live data: its addresses, and what it shows at one of them. */
export interface LivePage {
  pattern: RegExp;
  load(pathname: string, search: URLSearchParams, boot: BootData): Promise<LivePageAnswer>;
}

type Entry = { renderPage(path: string, boot: BootData, search?: string): Promise<string> };

const ROOT_EMPTY = '<div id="root"></div>';

/**
 * Renders pages with live data at request time (decision 044) with the bundle scripts/prerender.ts keeps beside the web
 * build (`ssr/entry-prerender.js`, the public pages' own small app): the same tree the browser hydrates, filled in
 * public.html with the page's head and the boot data (the settings and the reads the page made). Null when the build has
 * no such bundle (a plain `vite build`).
 */
export class LivePageRenderer {
  private entry: Promise<Entry> | null = null;

  private constructor(
    private readonly entryPath: string,
    private readonly template: string,
  ) {}

  static load(webDist: string): LivePageRenderer | null {
    const entryPath = path.join(webDist, SSR_DIR, SSR_ENTRY);
    const templatePath = path.join(webDist, "public.html");
    if (!existsSync(entryPath) || !existsSync(templatePath)) return null;
    const template = readFileSync(templatePath, "utf8");
    if (!template.includes(ROOT_EMPTY)) return null;
    return new LivePageRenderer(entryPath, template);
  }

  async render(pathname: string, search: string, boot: BootData, head: LivePageHead): Promise<string> {
    this.entry ??= import(pathToFileURL(this.entryPath).href) as Promise<Entry>;
    const entry = await this.entry.catch((error: unknown) => {
      this.entry = null;
      throw error;
    });
    const markup = await entry.renderPage(pathname, boot, search);
    return this.template
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
      .replace(/<meta name="description"[^>]*>/, () => headTags(head, boot.platformSettings.platformName))
      .replace(ROOT_EMPTY, () => `<div id="root">${markup}</div>`)
      .replace("</body>", () => `${bootDataScript(boot)}\n  </body>`);
  }
}

function headTags(head: LivePageHead, siteName: string): string {
  const title = escapeHtml(head.title);
  const description = escapeHtml(head.description);
  return [
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(head.canonical)}" />`,
    ...(head.image ? [`<meta property="og:image" content="${escapeHtml(head.image)}" />`] : []),
  ].join("\n    ");
}
