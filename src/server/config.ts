import path from "node:path";
import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "./lib/trust-proxy.js";

const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

const S3_VARIABLES = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

const envSchema = z.object({
  NODE_ENV: z.string().default("production"),
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  /** The embedded database's page cache (db/pglite-engine.ts, PGLITE_MEMORY). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "PGLITE_SHARED_BUFFERS must be a size such as 16MB")
    .default("16MB"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().optional(),
  APP_SECRET: z.string().min(32, "APP_SECRET must be at least 32 characters").optional(),
  /** false | true (one hop) | a hop count | a comma list of proxy addresses/CIDRs (lib/trust-proxy.ts). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((raw, context): TrustProxy => {
      const parsed = parseTrustProxy(raw);
      if ("value" in parsed) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }),
  PUBLIC_ORIGIN: z.string().url().optional(),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(7),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(30),
  VIDEO_EMBED_HOSTS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Folder of the built web app; the default is where `npm run build` puts it. */
  WEB_DIST: z.string().optional(),
  /** Provider keys used when the admin stored none for the seeded platform of that provider. */
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  DEEPSEEK_API_KEY: z.string().optional(),
  MISTRAL_API_KEY: z.string().optional(),
  /** Stripe (issue 12): these win over keys an admin enters on the Payment Settings page. */
  STRIPE_SECRET_KEY: z.string().optional(),
  VITE_STRIPE_PUBLIC_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the server's Stripe client sends its calls (default Stripe's API): a proxy or a local stand-in. */
  STRIPE_API_URL: z.string().url().optional(),
  /** A reply that sends nothing for this long (first chunk / between chunks) ends with a timeout. */
  AI_FIRST_CHUNK_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  AI_CHUNK_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Replies and course runs one user may have running at once (admins included); beyond that 429. */
  AI_MAX_CONCURRENT_PER_USER: z.coerce.number().int().min(1).max(1000).default(3),
  /** Lessons one approval of an AI outline may write (one provider call each); beyond that 429. */
  AI_MAX_LESSONS_PER_APPROVE: z.coerce.number().int().min(1).max(10_000).default(60),
  /** Tests: every answer is also checked against its contract's zod schema, so a drift fails loudly (500). */
  CHECK_RESPONSES: booleanFlag,
  /**
   * An S3-compatible object store for the library's file bytes (issue 30, decision 035): all four of endpoint, bucket
   * and keys, or none (the bytes stay in PostgreSQL). S3_REGION defaults to us-east-1.
   */
  S3_ENDPOINT: z.string().url("S3_ENDPOINT must be a URL such as https://s3.example.com").optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** The object store is set by all four S3 variables or none: some of them is a mistake, and the start says which. */
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  const set = S3_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== "");
  if (set.length > 0 && set.length < S3_VARIABLES.length) {
    const missing = S3_VARIABLES.filter((name) => !set.includes(name));
    context.addIssue({
      code: "custom",
      path: [missing[0] ?? "S3_ENDPOINT"],
      message: `The object store needs all of ${S3_VARIABLES.join(", ")} (or none, to keep files in the database); missing: ${missing.join(", ")}`,
    });
  }
});

export type Config = z.infer<typeof envSchema> & { webDist: string };

/** The object store's settings when S3 is set, null otherwise (the bytes stay in PostgreSQL). */
export function s3Settings(config: Config) {
  if (!config.S3_ENDPOINT || !config.S3_BUCKET || !config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    region: config.S3_REGION,
  };
}

const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, "../../dist/web");

/** Reads the environment once; a bad value stops the start with a readable message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = checkedEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, webDist: parsed.data.WEB_DIST ? path.resolve(parsed.data.WEB_DIST) : DEFAULT_WEB_DIST };
}
