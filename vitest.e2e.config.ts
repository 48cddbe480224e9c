import { defineConfig } from "vitest/config";

// Browser walks against the built web app. Each file starts its own app (its own database, port 0) and its own
// Chromium, so two files run side by side: one walk leaves a core idle while it waits on the browser, and the whole
// pass is the longest part of CI (decision 069).
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    environment: "node",
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 90_000,
  },
});
