/**
 * The house rules the linter cannot express, checked on every `npm run lint`:
 *  1. src/shared imports nothing of ours; src/web never imports src/server and the reverse.
 *  2. No web feature imports another feature (shared web code lives in web/domain, web/lib, web/components).
 *     web/features/admin is split into sub-features (users, email, payments, ...): none imports another, only
 *     admin's common part (web/features/admin/common), which imports none of them; no file sits in admin itself.
 *  3. The server's lower floors (plugins, lib, db, ai) never import server/modules (app.ts and context.ts wire them).
 *  4. web/lib and web/domain never import web/components; web/components never imports a feature.
 *  5. Only src/server/ai imports the AI SDK ("ai", "@ai-sdk/*"); only server/modules/payments imports the
 *     Stripe SDK ("stripe"), and only web/features/checkout imports Stripe.js ("@stripe/*").
 *  6. A route file never touches Drizzle (routes validate, authorize and call a service).
 *  7. No cycle between folders (a module, a feature, or a top-level folder counts as one).
 *  8. A server module's files say what they hold: routes in `<topic>-routes.ts`, services in `<topic>-service.ts`
 *     (the topic is the module's name, or the part of it the file serves), never a bare `routes.ts` or `service.ts`.
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

/** The features made of sub-features, and the name of the sub-feature each of them shares with all the others. */
const splitFeatures = new Map([["web/features/admin", "common"]]);

/** "web/features/chat/api.ts" → "web/features/chat"; "web/features/admin/users/api.ts" → "web/features/admin". */
function featureOf(relative: string): string {
  return relative.split("/").slice(0, 3).join("/");
}

/**
 * "server/modules/chat/routes.ts" → "server/modules/chat"; "web/features/admin/users/pages/users-page.tsx" →
 * "web/features/admin/users"; "web/lib/plan.ts" → "web/lib"; "server/app.ts" → "server".
 */
function folderOf(relative: string): string {
  const parts = relative.split("/");
  if (parts[0] === "web" && parts[1] === "features") {
    return splitFeatures.has(featureOf(relative)) && parts.length > 4 ? parts.slice(0, 4).join("/") : parts.slice(0, 3).join("/");
  }
  if (parts[0] === "server" && parts[1] === "modules") return parts.slice(0, 3).join("/");
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
  if (under(from, "server/modules") && /\/(routes|service)\.ts$/.test(from))
    problems.push(`src/${from}: name a module's file by its topic (<topic>-routes.ts, <topic>-service.ts)`);
  if (splitFeatures.has(path.posix.dirname(from))) {
    problems.push(`src/${from}: ${path.posix.dirname(from)} holds only its sub-features; put this file in one of them`);
  }
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
    if (under(fromFolder, "web/features") && under(toFolder, "web/features") && featureOf(from) !== featureOf(to)) {
      complain("a web feature never imports another feature", spec);
    }
    const common = splitFeatures.get(featureOf(from));
    if (common !== undefined && featureOf(from) === featureOf(to) && fromFolder !== toFolder) {
      if (fromFolder === `${featureOf(from)}/${common}`) complain(`${fromFolder} never imports a sub-feature of its own`, spec);
      else if (toFolder !== `${featureOf(to)}/${common}`) complain(`a sub-feature imports no other sub-feature, only ${common}`, spec);
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
