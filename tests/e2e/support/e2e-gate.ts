/**
 * Whether `npm run test:e2e` (scripts/run-e2e.ts) runs the browser tests. Browser tests that do not run are a
 * failure unless skipped on purpose with `SKIP_E2E=1`, and under CI (`CI=true`) they must run: a skip is refused.
 */
export type E2eGate = { run: true; chromium: string } | { run: false; exitCode: 0 | 1; message: string };

export function e2eGate(env: Record<string, string | undefined>, chromium: string | null): E2eGate {
  const inCi = env.CI === "true";
  if (env.SKIP_E2E === "1") {
    return inCi
      ? { run: false, exitCode: 1, message: "SKIP_E2E=1 under CI=true: failing, browser tests must run in CI." }
      : { run: false, exitCode: 0, message: "Browser tests were NOT run: SKIP_E2E=1 is set." };
  }
  if (chromium) return { run: true, chromium };
  return {
    run: false,
    exitCode: 1,
    message: [
      "Browser tests were NOT run: they need Chromium, and none was found (looked at $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser).",
      "Install it with:  apt-get update && apt-get install -y chromium",
      inCi ? "CI=true: browser tests must run in CI." : "To run the other tests without them on purpose: SKIP_E2E=1 npm test",
    ].join("\n"),
  };
}
