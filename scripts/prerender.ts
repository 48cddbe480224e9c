/**
 * The prerender step of `npm run build` (issue 13), run after the client build (`vite build`):
 *
 *   tsx scripts/prerender.ts [--outDir dist/web]
 *
 * Bundles src/web/entry-prerender.tsx for Node (`vite build --ssr`, into node_modules/.cache so the bundle
 * finds the project's packages, removed afterwards), then renders every public page (shared/public-pages.ts)
 * signed out, with tokens where the live values go (shared/prerender.ts), once per variant of the public
 * switches, and writes <outDir>/prerendered/<slug>.html (the built public.html with #root filled and the
 * page's own head) plus the manifest the server picks a variant with.
 *
 * Before writing a page it checks that the tokens can stand for any value: the page rendered with tokens
 * and then filled with sample values must equal the page rendered with those values. A page that fails
 * (a render error, a value used other than as text) stops the build, naming the page and what differed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "vite";
import {
  allVariants,
  bootDataFor,
  escapeHtml,
  fillLiveValues,
  type LiveTexts,
  PRERENDER_MANIFEST,
  PRERENDERED_DIR,
  type PrerenderManifest,
  publicPageTitle,
  SENTINELS,
  SSR_DIR,
  SSR_ENTRY,
  variantKey,
} from "../src/shared/prerender.js";
import { PUBLIC_PAGES, type PublicPage } from "../src/shared/public-pages.js";

type Entry = typeof import("../src/web/entry-prerender.js");

const ROOT_EMPTY = '<div id="root"></div>';

/** Values no page could mistake for a token: markup characters, a price with cents, another currency. */
const SAMPLE_TEXTS: LiveTexts = {
  platformName: `Acme <b>Labs</b> & "Co" 'Q'`,
  supportEmail: "help+desk@example.com",
  earlyAccessPrice: "1234.5",
  currency: "EUR",
  publishableKey: "pk_test_sample",
};

const { values: args } = parseArgs({ options: { outDir: { type: "string", default: "dist/web" } } });
const projectRoot = path.resolve(import.meta.dirname, "..");
const outDir = path.resolve(args.outDir);
const templatePath = path.join(outDir, "public.html");

function fail(message: string): never {
  console.error(`prerender: ${message}`);
  process.exit(1);
}

if (!existsSync(templatePath))
  fail(`no client build in ${outDir} (public.html is missing): run "vite build --outDir ${args.outDir}" first.`);
const template = readFileSync(templatePath, "utf8");
if (!template.includes(ROOT_EMPTY)) fail(`${templatePath} has no empty ${ROOT_EMPTY}: is it already prerendered?`);

/** The built public.html with the page's head (title, description, Open Graph) and its markup in #root. */
function pageDocument(page: PublicPage, markup: string): string {
  const title = escapeHtml(publicPageTitle(page, SENTINELS.platformName));
  const description = escapeHtml(page.description);
  const head = [
    `<meta name="description" content="${description}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${SENTINELS.platformName}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
  ].join("\n    ");
  const replaced = { title: false, description: false };
  const html = template
    .replace(/<title>[^<]*<\/title>/, () => {
      replaced.title = true;
      return `<title>${title}</title>`;
    })
    .replace(/<meta name="description"[^>]*>/, () => {
      replaced.description = true;
      return head;
    })
    .replace(ROOT_EMPTY, () => `<div id="root">${markup}</div>`);
  if (!replaced.title || !replaced.description) throw new Error(`${templatePath} has no <title> or <meta name="description"> to replace.`);
  return html;
}

/** Where two renders part, for the message. */
function firstDifference(expected: string, actual: string): string {
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at += 1;
  const from = Math.max(0, at - 80);
  return `rendered with the values: …${expected.slice(from, at + 80)}…\n    tokens filled in:         …${actual.slice(from, at + 80)}…`;
}

async function prerenderPage(entry: Entry, page: PublicPage, target: string) {
  const [defaults] = allVariants();
  if (!defaults) throw new Error("no variants");
  const sample = bootDataFor(defaults, SAMPLE_TEXTS);
  const direct = await entry.renderPage(page.path, sample);
  const filled = fillLiveValues(await entry.renderPage(page.path, bootDataFor(defaults)), sample);
  if (filled !== direct) {
    throw new Error(
      `a live value (product name, support email, price) is used other than as text, so the page cannot be filled in per request:\n    ${firstDifference(direct, filled)}`,
    );
  }
  const files = new Map<string, string>();
  const variants: Record<string, string> = {};
  for (const variant of allVariants()) {
    const html = pageDocument(page, await entry.renderPage(page.path, bootDataFor(variant)));
    let file = files.get(html);
    if (!file) {
      file = files.size === 0 ? `${page.slug}.html` : `${page.slug}.${createHash("sha256").update(html).digest("hex").slice(0, 10)}.html`;
      files.set(html, file);
      writeFileSync(path.join(target, file), html);
    }
    variants[variantKey(variant)] = file;
  }
  return { variants, files: files.size };
}

process.env.NODE_ENV = "production";
// Kept beside the web build (never served: the static plugin refuses the folder): the server renders the pages that
// show live data (the catalogue, issue 33) with it at request time. Its packages are bundled in (`noExternal`), so it
// runs wherever the build is.
const ssrDir = path.join(outDir, SSR_DIR);
rmSync(ssrDir, { recursive: true, force: true });
{
  const started = performance.now();
  await build({
    configFile: path.join(projectRoot, "vite.config.ts"),
    logLevel: "warn",
    ssr: { noExternal: true },
    build: {
      ssr: path.join(projectRoot, "src/web/entry-prerender.tsx"),
      outDir: ssrDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
    },
  });
  const entryFile = readdirSync(ssrDir).find((file) => file === SSR_ENTRY);
  if (!entryFile) throw new Error(`the SSR build wrote no entry-prerender.js in ${ssrDir}`);
  const entry = (await import(pathToFileURL(path.join(ssrDir, entryFile)).href)) as Entry;

  const target = path.join(outDir, PRERENDERED_DIR);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const manifest: PrerenderManifest = { pages: {} };
  const problems: string[] = [];
  for (const page of PUBLIC_PAGES) {
    try {
      const { variants, files } = await prerenderPage(entry, page, target);
      manifest.pages[page.path] = { slug: page.slug, variants };
      console.log(
        `prerendered ${page.path.padEnd(18)} ${PRERENDERED_DIR}/${page.slug}.html${files > 1 ? ` (+${files - 1} variants)` : ""}`,
      );
    } catch (error) {
      problems.push(`${page.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  writeFileSync(path.join(target, PRERENDER_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  if (problems.length > 0) {
    console.error(
      `prerender: ${problems.length} public page(s) could not be prerendered (served unrendered until fixed):\n  ${problems.join("\n  ")}`,
    );
    process.exitCode = 1;
  } else
    console.log(`prerendered ${PUBLIC_PAGES.length} public pages into ${target} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
