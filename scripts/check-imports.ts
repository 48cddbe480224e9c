/**
 * House rule 1 of DESIGN.md: src/shared imports nothing of ours, src/web never
 * imports src/server and the reverse. Biome has no folder-to-folder rule, so
 * this small check runs with the linter.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "src");
const forbidden: Record<string, string[]> = { shared: ["server", "web"], web: ["server"], server: ["web"] };
const importPattern = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx)$/.test(entry)) yield full;
  }
}

const problems: string[] = [];
for (const [layer, banned] of Object.entries(forbidden)) {
  const layerDir = path.join(root, layer);
  for (const file of files(layerDir)) {
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? "";
      if (!spec.startsWith(".")) continue;
      const target = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0] ?? "";
      if (banned.includes(target))
        problems.push(`${path.relative(process.cwd(), file)}: src/${layer} must not import src/${target} (${spec})`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Import direction broken:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("import direction: ok");
