import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// The web app lives in src/web and is built into dist/web, which the Fastify server serves. Two pages:
// index.html (the app) and public.html (the prerendered public pages' own small app, decision 015).
const page = (file: string) => fileURLToPath(new URL(`src/web/${file}`, import.meta.url));

/**
 * public.html is index.html with the public pages' entry: made here from it, so the two heads never part.
 * scripts/prerender.ts fills the built copy in, once per public page.
 */
function publicHtml(): Plugin {
  const file = page("public.html");
  return {
    name: "public-html",
    enforce: "pre",
    resolveId: (id) => (id === file ? file : undefined),
    load(id) {
      if (id !== file) return undefined;
      const index = readFileSync(page("index.html"), "utf8");
      if (!index.includes('src="/main.tsx"')) throw new Error('index.html has no <script src="/main.tsx">');
      return index.replace('src="/main.tsx"', 'src="/public-main.tsx"');
    },
  };
}

/**
 * theme-init.js (public/, where the dev server serves it) is a classic script that blocks the page's parsing until
 * it has run, so the theme is on <html> before the first paint. Built, it goes out as a hashed asset, cached for a
 * year like the rest of assets/, so a warm page runs it at once instead of asking the server again first: that
 * revalidation waited behind the chat page's preloaded reads on the server's thread, and held the app's code
 * back with it (issue 29).
 */
function hashedThemeInit(): Plugin {
  const source = readFileSync(page("public/theme-init.js"), "utf8");
  const fileName = `assets/theme-init-${createHash("sha256").update(source).digest("base64url").slice(0, 8)}.js`;
  return {
    name: "hashed-theme-init",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName, source });
    },
    transformIndexHtml(html) {
      if (!html.includes('<script src="/theme-init.js"></script>')) throw new Error('index.html has no <script src="/theme-init.js">');
      return html.replace('<script src="/theme-init.js"></script>', `<script src="/${fileName}"></script>`);
    },
  };
}

/** The modules of the public pages' common chunk (their reads, base components and libraries), shared with the app. */
const PUBLIC_SITE_CORE = [
  ...["phone-menu", "logo", "ui/button", "ui/spinner", "ui/badge", "ui/alert", "ui/form-field", "ui/input", "ui/textarea", "ui/label"].map(
    (name) => `/src/web/components/${name}.tsx`,
  ),
  ...["public-reads", "platform-settings", "payment-settings"].map((name) => `/src/web/domain/${name}.ts`),
  "/src/web/lib/cn.ts",
  "/src/web/lib/paths.ts",
  ...["constants", "format-price", "contact-subjects"].map((name) => `/src/shared/${name}.ts`),
  ...[
    "react",
    "wouter",
    "clsx",
    "tailwind-merge",
    "class-variance-authority",
    "@radix-ui/react-slot",
    "@radix-ui/react-compose-refs",
    "@radix-ui/react-label",
    "@radix-ui/react-primitive",
  ].map((name) => `/node_modules/${name}/`),
  ...["Icon.mjs", "createLucideIcon.mjs", "defaultAttributes.mjs", "context.mjs", "shared/src/utils/"].map(
    (name) => `/node_modules/lucide-react/dist/esm/${name}`,
  ),
  // What the landing and sign-in pages draw besides: one chunk each of their own cost its imports' bytes on /auth (issue 33).
  "/src/web/components/ui/card.tsx",
  "/src/web/domain/display-name.ts",
  "/src/web/domain/initial-reads.ts",
  ...["messages-square", "bot", "book-open", "circle-exclamation-point", "user-round"].map(
    (name) => `/node_modules/lucide-react/dist/esm/icons/${name}.mjs`,
  ),
];

/**
 * The icons the signed-in app's first screens draw (the chat's sidebar, header and composer; the dashboard), none of
 * them on a public page's first screen: one chunk instead of one each, whose imports cost more than the icon (issue 34,
 * /chat's 200 KiB budget). An icon a public page draws must not be named here, or it would bring the others with it.
 */
const APP_ICONS = [
  "folder-plus",
  "wrench",
  "eye-off",
  "settings",
  "graduation-cap",
  "triangle-exclamation-point",
  "message-square-plus",
  "trash",
  "shield",
  "pencil",
  "message-square",
  "download",
  "folder",
  "upload",
  "lock",
  "library",
  "info",
  "plus",
  "square",
  "chevron-right",
  "chevron-up",
].map((name) => `/node_modules/lucide-react/dist/esm/icons/${name}.mjs`);

/**
 * zod's JSON Schema export, left out of the web build (decision 041): the server turns the contracts into Fastify's
 * response schemas with it, the browser never does, yet zod's classic schemas import it (each schema keeps a hook to
 * it), so it shipped with every screen that loads a contract (about 5 KiB gzip on /chat's first screen). In the build
 * its two modules keep their export names, each a function that throws if ever called. The dev server keeps zod whole.
 */
function zodWithoutJsonSchema(): Plugin {
  const stubbed = /\/node_modules\/zod\/v4\/core\/(json-schema-processors|to-json-schema|json-schema-generator)\.js$/;
  return {
    name: "zod-without-json-schema",
    apply: "build",
    load(id) {
      if (!stubbed.test(id)) return null;
      const source = readFileSync(id, "utf8");
      const names = new Set<string>();
      for (const match of source.matchAll(/export\s+(?:function|const|let|class)\s+([A-Za-z_$][\w$]*)/g)) if (match[1]) names.add(match[1]);
      for (const match of source.matchAll(/export\s*\{([^}]*)\}/g)) {
        for (const part of (match[1] ?? "").split(",")) {
          const name = part
            .trim()
            .split(/\s+as\s+/)
            .pop();
          if (name) names.add(name);
        }
      }
      const missing = '() => () => { throw new Error("zod\'s JSON Schema export is not in the web build"); }';
      return [...names].map((name) => `export const ${name} = ${missing};`).join("\n");
    },
  };
}

export default defineConfig({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), publicHtml(), hashedThemeInit(), zodWithoutJsonSchema()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    rolldownOptions: {
      input: { index: page("index.html"), public: page("public.html") },
      // What every public page needs goes into one chunk instead of a dozen small ones: fewer requests, and
      // gzip compresses them together (about 3 KiB less per page). Shared with the signed-in app.
      output: {
        codeSplitting: {
          groups: [
            { name: "public-site", test: (id: string) => PUBLIC_SITE_CORE.some((part) => id.includes(part)) },
            // The public pages' header, footer and sections: a chunk of their own (after the common one, so it holds
            // only them), which the signed-in app never loads: about 1.6 KiB less on /chat's first screen (decision 065).
            { name: "public-layout", test: (id: string) => id.includes("/src/web/components/public-site/") },
            { name: "app-icons", test: (id: string) => APP_ICONS.some((part) => id.endsWith(part)) },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // changeOrigin stays false so the API's same-origin check sees the dev server's own host.
    proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: false } },
  },
});
