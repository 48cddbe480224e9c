import { defineConfig } from "vitest/config";

// Browser walks: one file at a time (each starts the app and a Chromium), against the built web app.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
