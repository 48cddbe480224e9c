import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "tests/api/**/*.test.ts", "tests/multi/**/*.test.ts"],
    // tests/multi needs PostgreSQL and Redis; it runs in the PostgreSQL pass (npm run test:pg).
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DB === "postgres" ? [] : ["tests/multi/**"])],
    environment: "node",
    // The migrated empty database each API test file starts from, made once (tests/helpers/test-database.ts).
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: argon2 and PGlite are CPU-heavy, more workers only thrash.
    maxWorkers: 2,
  },
});
