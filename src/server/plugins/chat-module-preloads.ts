import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Where Vite writes the build's manifest (`build.manifest` in vite.config.ts): never served (static-web.ts). */
export const BUILD_MANIFEST = path.join(".vite", "manifest.json");

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
type BuildManifest = Record<string, ManifestChunk>;

/**
 * The chat's first screen's code: the signed-in shell, the chat page and the sidebar's prefetch, as the app asks for
 * them at boot (web/app/first-screen-prefetch.ts). By source path, as the manifest names them.
 */
const CHAT_PAGE_SOURCES = ["app/layouts/app-layout.tsx", "features/chat/pages/chat-page.tsx", "features/chat/sidebar-prefetch.ts"];
/** On /chat/{id} the Markdown renderer goes with them: the lazy loader's one dynamic import. */
const MARKDOWN_LOADER = "lazy-markdown";

export interface ChatModulePreloads {
  /** `<link rel="modulepreload">` tags for /chat. */
  chat: string;
  /** The same and the Markdown renderer, for /chat/{id}. */
  openChat: string;
}

/**
 * The chat page's code named in its HTML (issue 42, item 33; decision 076): the browser fetches and compiles the
 * chunks while the entry's code runs, instead of after it, when the router has chosen the page. Only the chunks
 * index.html does not already preload. Empty when the build has no manifest (the page still works, later).
 */
export function chatModulePreloads(webRoot: string): ChatModulePreloads {
  const manifestPath = path.join(webRoot, BUILD_MANIFEST);
  if (!existsSync(manifestPath)) return { chat: "", openChat: "" };
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as BuildManifest;
  const entry = Object.keys(manifest).find((key) => key.endsWith("index.html"));
  const loaded = staticClosure(manifest, entry ? [entry] : []);
  const page = CHAT_PAGE_SOURCES.filter((key) => key in manifest);
  const loader = Object.keys(manifest).find((key) => manifest[key]?.file.includes(`/${MARKDOWN_LOADER}-`));
  const markdown = loader ? (manifest[loader]?.dynamicImports ?? []) : [];
  const tags = (roots: string[]) =>
    [...staticClosure(manifest, roots)]
      .filter((key) => !loaded.has(key))
      .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]?.file}">`)
      .join("\n    ");
  return { chat: tags(page), openChat: tags([...page, ...markdown]) };
}

/** The chunks these load before they run: themselves and their static imports, transitively, in load order. */
function staticClosure(manifest: BuildManifest, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return seen;
}
