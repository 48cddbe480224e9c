import type { McpLookup } from "./ai/mcp/mcp-client.js";
import type { Config } from "./config.js";
import type { Db } from "./db/client.js";
import type { BearerLookup } from "./lib/access.js";
import type { CounterStore } from "./lib/counter-store.js";
import type { SecretBox } from "./lib/secret-box.js";
import type { PlatformDeps } from "./modules/ai-platforms/platform-view.js";
import type { GenerationManager } from "./modules/chat/generation/generation-manager.js";
import type { CourseGenerationRunner } from "./modules/courses/ai/generation-runner.js";
import type { OutboxWorker } from "./modules/email/outbox-worker.js";
import type { FileStore } from "./modules/knowledge/file-store.js";
import type { IngestionWorker } from "./modules/knowledge/ingestion/ingestion-worker.js";
import type { VectorStore } from "./modules/knowledge/retrieval/vector-store.js";
import type { StripeGateway } from "./modules/payments/gateway.js";
import type { SessionStore } from "./modules/sessions/session-store.js";

/** What every route reaches through `app.ctx`: built once in app.ts. */
export interface AppContext {
  config: Config;
  db: Db;
  sessions: SessionStore;
  /** Personal API tokens: who a bearer request is (issue 35). */
  apiTokens: BearerLookup;
  counters: CounterStore;
  /** Encrypts secrets stored in the database (provider keys, SMTP password). */
  secrets: SecretBox;
  /** What the AI platform code needs to reach a provider (secrets, environment keys). */
  platformDeps: PlatformDeps;
  /** Replies being written, apart from the requests that asked for them. */
  generations: GenerationManager;
  /** Lesson bodies of approved AI outlines being written. */
  courseGenerations: CourseGenerationRunner;
  /** Sends the email outbox (retries; claims shared safely between instances). */
  outbox: OutboxWorker;
  /** The knowledge library's file bytes: the database, or an S3-compatible store (issue 30). */
  fileStore: FileStore;
  /** Reads the library's files into pieces and vectors (durable jobs on the files' rows, decision 036). */
  ingestion: IngestionWorker;
  /** pgvector where it is installed (`available`), else retrieval is full text only. */
  vectors: VectorStore;
  /** Stripe: the keys in use and the client (STRIPE_API_URL), for the checkout and the webhook. */
  payments: StripeGateway;
  /** How the MCP client resolves host names (the real DNS; tests pass their own to reach "link-local" names). */
  mcpLookup: McpLookup;
}

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
