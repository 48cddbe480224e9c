import { readdirSync } from "node:fs";
import path from "node:path";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";

const contractsDir = path.resolve(import.meta.dirname, "../../src/shared/contracts");

/** Every `endpoint()` object exported by a contract file (the `xxxApi` records). */
export async function contractEndpoints(): Promise<EndpointShape[]> {
  const found: EndpointShape[] = [];
  for (const file of readdirSync(contractsDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const module = (await import(path.join(contractsDir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith("Api") || typeof value !== "object" || value === null) continue;
      found.push(...(Object.values(value) as EndpointShape[]));
    }
  }
  return found;
}
