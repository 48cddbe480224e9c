/**
 * The house rules the linter cannot express, checked on every `npm run lint`:
 *  1. src/shared imports nothing of ours; src/web never imports src/server and the reverse.
 *  2. No web feature imports another feature (shared web code lives in web/domain, web/lib, web/components).
 *  3. The server's lower floors (plugins, lib, db, ai) never import server/modules (app.ts and context.ts wire them).
 *  4. web/lib and web/domain never import web/components; web/components never imports a feature.
 *  5. Only src/server/ai imports the AI SDK ("ai", "@ai-sdk/*"); only server/modules/payments imports the
 *     Stripe SDK ("stripe"), and only web/features/checkout imports Stripe.js ("@stripe/*").
 *  6. A route file never touches Drizzle (routes validate, authorize and call a service).
 *  7. No cycle between folders (a module, a feature, or a top-level folder counts as one).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "src");
const importPattern = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx)$/.test(entry)) yield full;
  }
}

/** "server/modules/chat/routes.ts" → "server/modules/chat"; "web/lib/plan.ts" → "web/lib"; "server/app.ts" → "server". */
function folderOf(relative: string): string {
  const parts = relative.split("/");
  if ((parts[0] === "server" && parts[1] === "modules") || (parts[0] === "web" && parts[1] === "features")) {
    return parts.slice(0, 3).join("/");
  }
  return parts.length > 2 ? parts.slice(0, 2).join("/") : parts[0]!;
}

const under = (relative: string, ...prefixes: string[]) => prefixes.some((p) => relative === p || relative.startsWith(`${p}/`));

const problems: string[] = [];
const edges = new Map<string, Set<string>>();

for (const file of files(root)) {
  if (/\.test\.tsx?$/.test(file)) continue;
  const from = path.relative(root, file).split(path.sep).join("/");
  const source = readFileSync(file, "utf8");
  const complain = (rule: string, spec: string) => problems.push(`src/${from}: ${rule} (${spec})`);
  for (const match of source.matchAll(importPattern)) {
    const spec = match[1] ?? match[2] ?? "";
    if (!spec.startsWith(".")) {
      if ((spec === "ai" || spec.startsWith("@ai-sdk/")) && !under(from, "server/ai")) {
        complain("only src/server/ai may use the AI SDK", spec);
      }
      if (spec === "stripe" && !under(from, "server/modules/payments"))
        complain("only server/modules/payments may use the Stripe SDK", spec);
      if (spec.startsWith("@stripe/") && !under(from, "web/features/checkout"))
        complain("only web/features/checkout may load Stripe.js", spec);
      if (spec.startsWith("drizzle-orm") && /routes\.ts$/.test(from)) complain("a route never touches Drizzle; call a service", spec);
      continue;
    }
    const to = path
      .relative(root, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join("/");
    const [fromLayer] = from.split("/");
    const [toLayer] = to.split("/");
    if (fromLayer === "shared" && toLayer !== "shared") complain("src/shared imports nothing of ours", spec);
    if ((fromLayer === "web" && toLayer === "server") || (fromLayer === "server" && toLayer === "web")) {
      complain(`src/${fromLayer} must not import src/${toLayer}`, spec);
    }
    const fromFolder = folderOf(from);
    const toFolder = folderOf(to);
    if (under(fromFolder, "web/features") && under(toFolder, "web/features") && fromFolder !== toFolder) {
      complain("a web feature never imports another feature", spec);
    }
    if (under(from, "server/plugins", "server/lib", "server/db", "server/ai") && under(to, "server/modules")) {
      complain("the server's plugins, lib, db and ai never import server/modules", spec);
    }
    if (under(from, "web/lib", "web/domain") && under(to, "web/components"))
      complain("web/lib and web/domain never import web/components", spec);
    if (under(from, "web/components") && under(to, "web/features")) complain("web/components never imports a feature", spec);
    if (/routes\.ts$/.test(from) && under(to, "server/db/schema")) complain("a route never touches Drizzle; call a service", spec);
    if (fromFolder !== toFolder) {
      if (!edges.has(fromFolder)) edges.set(fromFolder, new Set());
      edges.get(fromFolder)?.add(toFolder);
    }
  }
}

/** Tarjan's strongly connected components: any component of two or more folders is a cycle. */
function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexes = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indexes.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexes.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexes.get(next)!));
      }
    }
    if (low.get(node) === indexes.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexes.has(node)) visit(node);
  return cycles;
}

for (const cycle of folderCycles(edges)) problems.push(`folder cycle: ${cycle.map((f) => `src/${f}`).join(" <-> ")}`);

if (problems.length > 0) {
  console.error(`House rules broken:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("house rules: ok");
