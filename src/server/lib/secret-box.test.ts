import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveAppSecret, SecretBox } from "./secret-box.js";

describe("SecretBox", () => {
  it("round-trips a secret and never stores it in clear", () => {
    const box = new SecretBox("x".repeat(32));
    const sealed = box.seal("sk-live-abcdef123456");
    expect(sealed).not.toContain("sk-live");
    expect(box.open(sealed)).toBe("sk-live-abcdef123456");
    expect(box.seal("same")).not.toBe(box.seal("same"));
  });

  it("refuses a tampered value or another key", () => {
    const sealed = new SecretBox("a".repeat(32)).seal("secret");
    expect(() => new SecretBox("b".repeat(32)).open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => new SecretBox("a".repeat(32)).open(parts.join("."))).toThrow();
  });
});

describe("resolveAppSecret", () => {
  it("generates one secret into the data folder on the embedded database and reuses it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secret-"));
    const first = resolveAppSecret({ dataDir: dir, usingEmbeddedDb: true });
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(resolveAppSecret({ dataDir: dir, usingEmbeddedDb: true })).toBe(first);
    expect(readFileSync(path.join(dir, "app-secret"), "utf8").trim()).toBe(first);
    rmSync(dir, { recursive: true, force: true });
  });

  it("demands APP_SECRET with PostgreSQL, and prefers it when given", () => {
    expect(() => resolveAppSecret({ dataDir: "/nonexistent", usingEmbeddedDb: false })).toThrow(/APP_SECRET is required/);
    expect(resolveAppSecret({ appSecret: "given", dataDir: "/nonexistent", usingEmbeddedDb: false })).toBe("given");
  });
});
