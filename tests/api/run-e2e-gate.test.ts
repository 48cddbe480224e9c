// `npm test` does not pass without its browser tests (issue 28): scripts/run-e2e.ts fails, in red, when Chromium
// is missing, unless SKIP_E2E=1 skips them on purpose; under CI a skip is refused too.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { e2eGate } from "../e2e/support/e2e-gate.js";

const root = path.resolve(import.meta.dirname, "../..");

describe("the browser tests' gate", () => {
  it("runs them with Chromium", () => {
    expect(e2eGate({}, "/usr/bin/chromium")).toEqual({ run: true, chromium: "/usr/bin/chromium" });
    expect(e2eGate({ CI: "true" }, "/usr/bin/chromium")).toEqual({ run: true, chromium: "/usr/bin/chromium" });
  });

  it("fails without Chromium, outside CI too, and names SKIP_E2E=1", () => {
    const outside = e2eGate({}, null);
    expect(outside).toMatchObject({ run: false, exitCode: 1 });
    expect(outside.run === false && outside.message).toMatch(/NOT run[\s\S]*apt-get install -y chromium[\s\S]*SKIP_E2E=1 npm test/);
    expect(e2eGate({ CI: "true" }, null)).toMatchObject({ run: false, exitCode: 1, message: expect.stringContaining("CI=true") });
  });

  it("skips them on purpose with SKIP_E2E=1, saying so, but never under CI", () => {
    expect(e2eGate({ SKIP_E2E: "1" }, null)).toEqual({
      run: false,
      exitCode: 0,
      message: "Browser tests were NOT run: SKIP_E2E=1 is set.",
    });
    expect(e2eGate({ SKIP_E2E: "1" }, "/usr/bin/chromium")).toMatchObject({ run: false, exitCode: 0 });
    expect(e2eGate({ SKIP_E2E: "1", CI: "true" }, "/usr/bin/chromium")).toMatchObject({ run: false, exitCode: 1 });
    expect(e2eGate({ SKIP_E2E: "0" }, null)).toMatchObject({ run: false, exitCode: 1 });
  });

  it("is what scripts/run-e2e.ts follows: its exit code, and its message in red", () => {
    const script = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/run-e2e.ts"], {
        cwd: root,
        encoding: "utf8",
        // PATH without npx: a gate that let the run through fails at once, it never starts a build from here.
        env: { ...process.env, PATH: path.dirname(process.execPath), CI: "", FORCE_COLOR: "1", NO_COLOR: "", ...env },
        timeout: 30_000,
      });
    const skipped = script({ SKIP_E2E: "1" });
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain("\x1b[31mBrowser tests were NOT run: SKIP_E2E=1 is set.");
    const refused = script({ SKIP_E2E: "1", CI: "true" });
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.stderr).toContain("\x1b[31mSKIP_E2E=1 under CI=true");
  });
});
