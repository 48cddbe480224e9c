import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIN_NODE_MAJOR, oldNodeRefusal } from "./node-version.js";

const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe("the Node.js the server needs", () => {
  it("is the major the project ships and package.json's engines name", () => {
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^\\^${MIN_NODE_MAJOR}\\.`));
  });

  it("refuses an older major, naming both versions and what to run", () => {
    const refusal = oldNodeRefusal("20.20.2");
    expect(refusal).toContain(`needs Node.js ${MIN_NODE_MAJOR} or newer; it was started with Node.js 20.20.2.`);
    expect(refusal).toContain("npm start");
    expect(oldNodeRefusal(`${MIN_NODE_MAJOR - 1}.99.0`)).not.toBeNull();
    expect(oldNodeRefusal("garbage")).not.toBeNull();
  });

  it("takes the shipped major and newer", () => {
    expect(oldNodeRefusal(`${MIN_NODE_MAJOR}.0.0`)).toBeNull();
    expect(oldNodeRefusal(`${MIN_NODE_MAJOR + 2}.1.0`)).toBeNull();
    expect(oldNodeRefusal(process.versions.node)).toBeNull();
  });
});
