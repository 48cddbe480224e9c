import cookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { type Config, s3Settings } from "./config.js";
import type { Database } from "./db/client.js";
import { canonicalOnly } from "./lib/canonical-path.js";
import { type CounterStore, createMemoryCounterStore, createRedisCounterStore } from "./lib/counter-store.js";
import { createDatabaseCounterStore } from "./lib/database-counter-store.js";
import { lazyRequestLogger } from "./lib/lazy-request-logger.js";
import { loggerOptions } from "./lib/log-redaction.js";
import { registerOpenApi } from "./lib/openapi.js";
import type { RedisLink } from "./lib/redis.js";
import { resolveAppSecret, SecretBox } from "./lib/secret-box.js";
import { activityRoutes } from "./modules/activity/activity-routes.js";
import { adminUserRoutes } from "./modules/admin-users/admin-users-routes.js";
import { aiPlatformRoutes } from "./modules/ai-platforms/ai-platforms-routes.js";
import { PlatformCache } from "./modules/ai-platforms/platform-cache.js";
import { envKeysBySlug, seedPlatforms } from "./modules/ai-platforms/seed.js";
import { aiPromptRoutes } from "./modules/ai-prompts/ai-prompts-routes.js";
import { apiDocsRoutes } from "./modules/api-docs/api-docs-routes.js";
import { tokensRoutes } from "./modules/api-tokens/tokens-routes.js";
import { bearerLookup } from "./modules/api-tokens/tokens-service.js";
import { authRoutes } from "./modules/auth/auth-routes.js";
import { catalogLivePages } from "./modules/catalog/catalog-pages.js";
import { catalogRoutes } from "./modules/catalog/catalog-routes.js";
import { catalogSlugs } from "./modules/catalog/catalog-service.js";
import { certificateRoutes } from "./modules/certificates/certificates-routes.js";
import { chatRoutes } from "./modules/chat/chat-routes.js";
import { sweepTemporaryChats } from "./modules/chat/chat-service.js";
import { chatFolderRoutes } from "./modules/chat/folders-routes.js";
import { GenerationManager } from "./modules/chat/generation/generation-manager.js";
import { chatTransferRoutes } from "./modules/chat-transfer/chat-transfer-routes.js";
import { contactRoutes } from "./modules/contact/contact-routes.js";
import { CourseGenerationRunner } from "./modules/courses/ai/generation-runner.js";
import { courseAiRoutes } from "./modules/courses/course-ai-routes.js";
import { courseRoutes } from "./modules/courses/courses-routes.js";
import { lessonRoutes } from "./modules/courses/lessons-routes.js";
import { tutorRoutes } from "./modules/courses/tutor-routes.js";
import { tutorMaterial } from "./modules/courses/tutor-service.js";
import { emailRoutes } from "./modules/email/email-routes.js";
import { emailOutboxRoutes } from "./modules/email/outbox-routes.js";
import { OutboxWorker } from "./modules/email/outbox-worker.js";
import { publicOrigin } from "./modules/email/product-emails.js";
import { seedEmailTemplates } from "./modules/email/seed-templates.js";
import { collectionsRoutes } from "./modules/knowledge/collections-routes.js";
import { embeddingSettingsRoutes } from "./modules/knowledge/embedding-settings-routes.js";
import { databaseFileStore, sweepLooseParts } from "./modules/knowledge/file-store.js";
import { filesRoutes } from "./modules/knowledge/files-routes.js";
import { IngestionWorker } from "./modules/knowledge/ingestion/ingestion-worker.js";
import { VectorStore } from "./modules/knowledge/retrieval/vector-store.js";
import { s3FileStore } from "./modules/knowledge/s3-file-store.js";
import { sweepUnsentFiles } from "./modules/knowledge/unsent-files.js";
import { openAiRoutes } from "./modules/openai-api/openai-api-routes.js";
import { passwordResetRoutes } from "./modules/password-reset/password-reset-routes.js";
import { StripeGateway } from "./modules/payments/gateway.js";
import { paymentRoutes } from "./modules/payments/payments-routes.js";
import { CheckoutReconciler } from "./modules/payments/reconciler.js";
import { getPublicPaymentSettings } from "./modules/payments/settings-service.js";
import { personalityRoutes } from "./modules/personalities/personalities-routes.js";
import { platformSettingsRoutes } from "./modules/platform-settings/platform-settings-routes.js";
import { publicContentRoutes } from "./modules/public-content/public-content-routes.js";
import { getPublicPlatformSettings } from "./modules/public-content/public-content-service.js";
import { quizRoutes } from "./modules/quizzes/quizzes-routes.js";
import { registrationRoutes } from "./modules/registration/registration-routes.js";
import { toPublicUser } from "./modules/sessions/public-user.js";
import { SessionStore } from "./modules/sessions/session-store.js";
import { settingsRoutes } from "./modules/settings/settings-routes.js";
import { toolsRoutes } from "./modules/tools/tools-routes.js";
import { mcpToolAccess } from "./modules/tools/tools-service.js";
import { uploadRoutes } from "./modules/uploads/uploads-routes.js";
import { usageRoutes } from "./modules/usage/usage-routes.js";
import { userRoutes } from "./modules/user/user-routes.js";
import { videoRoutes } from "./modules/videos/videos-routes.js";
import "./context.js";
import { defaultMcpLookup, type McpLookup } from "./ai/mcp/guarded-fetch.js";
import { certificateIssued } from "./modules/certificates/certificates-service.js";
import { mcpServerRoutes } from "./modules/mcp-servers/mcp-servers-routes.js";
import { shareRoutes } from "./modules/sharing/shares-routes.js";
import { findSharedChat } from "./modules/sharing/shares-service.js";
import { errorHandlerPlugin } from "./plugins/error-handler.js";
import { gracefulClosePlugin } from "./plugins/graceful-close.js";
import { securityPlugin } from "./plugins/security.js";
import { seoPlugin } from "./plugins/seo.js";
import { sessionPlugin } from "./plugins/session.js";
import { staticWebPlugin } from "./plugins/static-web.js";

export interface ApiRouteInfo {
  method: string;
  url: string;
  /** The statuses its response schema names ("200", "4xx"...). */
  statuses: string[];
  /** Who may call it: its contract's access, enforced by the route's own hook (lib/access.ts). */
  access: string | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Every /api route registered, with the statuses of its response schema (read by the contract test). */
    apiRoutes: ApiRouteInfo[];
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  redis?: RedisLink;
  /** Tests pass a store they control; otherwise Redis when linked, else memory. */
  counters?: CounterStore;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** How the MCP client resolves host names; tests pass their own (the real DNS otherwise). */
  mcpLookup?: McpLookup;
}

/** Builds the whole app (plugins, then routes) without listening: main.ts listens, tests inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, redis } = options;
  const app = Fastify({
    // Errors without query values, no secret keys, no query-string values (lib/log-redaction.ts).
    logger: options.logger === false ? false : loggerOptions(config.LOG_LEVEL, options.logStream),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Ids in paths are short; a megabyte of path is an attack, not a request.
    routerOptions: { maxParamLength: 200 },
    // A path not in canonical form (`/%61pi/...`, `//api`, `/api/./x`, `/API/`) is answered 404 before routing.
    rewriteUrl: canonicalOnly,
    // One log line per request only when debugging: it costs a third of the throughput.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== "debug" && config.LOG_LEVEL !== "trace" }),
    // A request's child logger is made on its first line (lib/lazy-request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
  });
  app.setValidatorCompiler(validatorCompiler);
  // zod checks what comes in; answers go through Fastify's compiled (fast-json-stringify) response schemas (lib/route.ts).

  const warn = (message: string) => app.log.warn(message);
  const sessions = new SessionStore({
    db: database.db,
    idleDays: config.SESSION_IDLE_DAYS,
    maxDays: config.SESSION_MAX_DAYS,
    redis,
    log: warn,
  });
  await sessions.start();
  // With Redis, a Redis outage moves the counts to the database (every instance still counts the same).
  const counters =
    options.counters ??
    (redis
      ? createRedisCounterStore(redis.client, { fallback: createDatabaseCounterStore(database.db), log: warn })
      : createMemoryCounterStore());
  const secrets = new SecretBox(
    resolveAppSecret({ appSecret: config.APP_SECRET, dataDir: config.DATA_DIR, usingEmbeddedDb: database.kind === "pglite" }),
  );
  await seedPlatforms(database.db);
  await seedEmailTemplates(database.db);
  const generations = new GenerationManager({
    db: database.db,
    redis,
    firstChunkMs: config.AI_FIRST_CHUNK_TIMEOUT_MS,
    chunkMs: config.AI_CHUNK_TIMEOUT_MS,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await generations.start();
  const platformCache = new PlatformCache({ redis, log: warn });
  await platformCache.start();
  const platformDeps = { secrets, envKeys: envKeysBySlug(config), cache: platformCache, allowance: generations.allowance };
  // pgvector where it is (else full text only, said once here and in the admin): retrieval for courses and the library.
  const vectors = new VectorStore({ db: database.db, log: warn });
  await vectors.start();
  const courseGenerations = new CourseGenerationRunner({
    db: database.db,
    platformDeps,
    vectors,
    instanceId: generations.instanceId,
    isInstanceAlive: generations.mirror ? (id) => generations.mirror?.isInstanceAlive(id) ?? Promise.resolve(false) : undefined,
    limits: { maxRunning: config.AI_MAX_CONCURRENT_PER_USER, maxLessonsPerApprove: config.AI_MAX_LESSONS_PER_APPROVE },
    log: (message, error) => app.log.error({ err: error }, message),
    providerLog: app.log,
  });
  await courseGenerations.start();
  // Sends the stored emails (retries, several instances, the test inbox when no SMTP server is set).
  const outbox = new OutboxWorker({
    db: database.db,
    secrets,
    instanceId: generations.instanceId,
    singleInstance: !redis,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await outbox.start();
  // The library's bytes: in PostgreSQL (decision 003), or in the object store when S3_* is set (decision 035).
  const s3 = s3Settings(config);
  const fileStore = s3
    ? s3FileStore(s3, databaseFileStore(database.db), (message, error) => app.log.error({ err: error }, message))
    : databaseFileStore(database.db);
  // Housekeeping, at start and every hour (also on a server that runs for weeks): temporary chats the browser could
  // not delete go after a day, files attached to a message never sent after theirs (decision 068), file parts left
  // without a row after an hour (decision 074). Their times are in the rows, so a restart loses nothing.
  const housekeeping = async () => {
    await sweepTemporaryChats(database.db).catch((error) => app.log.error({ err: error }, "sweeping temporary chats failed"));
    await sweepUnsentFiles(database.db, fileStore, (message, error) => app.log.error({ err: error }, message)).catch((error) =>
      app.log.error({ err: error }, "sweeping unsent files failed"),
    );
    // Then the bytes of files whose rows are gone or were never stored (decision 074).
    await sweepLooseParts(database.db).catch((error) => app.log.error({ err: error }, "sweeping loose file parts failed"));
  };
  await housekeeping();
  const housekeepingTimer = setInterval(() => void housekeeping(), 60 * 60 * 1000);
  housekeepingTimer.unref();
  // Then the library's reader.
  const ingestion = new IngestionWorker({
    db: database.db,
    fileStore,
    vectors,
    platformDeps,
    instanceId: generations.instanceId,
    singleInstance: !redis,
    log: (message, error) => (error ? app.log.error({ err: error }, message) : app.log.warn(message)),
  });
  await ingestion.start();
  const payments = new StripeGateway({ db: database.db, secrets, config });
  // Paid checkouts nobody finished (tab closed, no webhook, an instance killed) are finished from Stripe.
  const checkouts = new CheckoutReconciler({
    db: database.db,
    sessions,
    gateway: payments,
    loginUrl: `${publicOrigin(config)}/login`,
    log: (message, error) => app.log.error({ err: error }, message),
    logError: (message, error) => app.log.error({ err: error }, message),
  });
  checkouts.start();
  app.decorate("ctx", {
    config,
    db: database.db,
    sessions,
    apiTokens: bearerLookup(database.db),
    counters,
    secrets,
    platformDeps,
    generations,
    courseGenerations,
    outbox,
    fileStore,
    ingestion,
    vectors,
    payments,
    mcpLookup: options.mcpLookup ?? defaultMcpLookup,
  });
  // Before the server waits for open requests: end every reply (kept, marked incomplete) so their streams close.
  app.addHook("preClose", async () => {
    clearInterval(housekeepingTimer);
    await Promise.all([generations.close(), courseGenerations.close(), outbox.close(), checkouts.close(), ingestion.close()]);
  });

  // House rule: every API route answers through a contract and declares its access. A route without them stops the start.
  app.decorate("apiRoutes", [] as ApiRouteInfo[]);
  app.addHook("onRoute", (routeOptions) => {
    if (!routeOptions.url?.startsWith("/api/") && !routeOptions.url?.startsWith("/v1/")) return;
    const response = routeOptions.schema?.response;
    const access = routeOptions.config?.access;
    if (!response || !access)
      throw new Error(`${String(routeOptions.method)} ${routeOptions.url} has no response schema or access: register it with route()`);
    app.apiRoutes.push({ method: String(routeOptions.method), url: routeOptions.url, statuses: Object.keys(response), access });
  });

  await app.register(errorHandlerPlugin);
  await app.register(gracefulClosePlugin);
  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(sessionPlugin);
  await registerOpenApi(app, { title: "Lumora API", version: "1" });

  await app.register(authRoutes);
  await app.register(registrationRoutes);
  await app.register(paymentRoutes);
  await app.register(userRoutes);
  await app.register(settingsRoutes);
  await app.register(uploadRoutes);
  await app.register(aiPlatformRoutes);
  await app.register(mcpServerRoutes);
  // A lesson's tutor chat is given its lesson by the courses module, which imports the chat module (decision 039).
  // The MCP servers' tools reach chats through the tools module's access (issue 34, decision 046).
  const mcp = mcpToolAccess({ db: app.ctx.db, secrets: app.ctx.secrets, lookup: app.ctx.mcpLookup });
  await app.register(chatRoutes, { tutor: tutorMaterial, mcp });
  await app.register(toolsRoutes, { mcp });
  await app.register(chatTransferRoutes);
  await app.register(chatFolderRoutes);
  await app.register(shareRoutes);
  await app.register(personalityRoutes, { mcp });
  await app.register(adminUserRoutes);
  await app.register(courseRoutes);
  await app.register(certificateRoutes);
  await app.register(catalogRoutes);
  await app.register(lessonRoutes);
  await app.register(courseAiRoutes);
  await app.register(quizRoutes);
  await app.register(tutorRoutes);
  await app.register(publicContentRoutes);
  await app.register(platformSettingsRoutes);
  await app.register(videoRoutes);
  await app.register(aiPromptRoutes);
  await app.register(activityRoutes);
  await app.register(emailRoutes);
  await app.register(emailOutboxRoutes);
  await app.register(passwordResetRoutes);
  await app.register(contactRoutes);
  await app.register(usageRoutes);
  await app.register(filesRoutes);
  await app.register(collectionsRoutes);
  await app.register(embeddingSettingsRoutes);
  await app.register(apiDocsRoutes);
  await app.register(tokensRoutes);
  await app.register(openAiRoutes);
  await app.register(seoPlugin, { origin: publicOrigin(config), catalogSlugs: () => catalogSlugs({ db: database.db }) });
  // The prerendered public pages carry the values the public API answers (issue 13).
  await app.register(staticWebPlugin, {
    livePages: catalogLivePages({ db: database.db, origin: publicOrigin(config) }),
    readPublicSettings: async () => {
      const [platformSettings, paymentSettings] = await Promise.all([
        getPublicPlatformSettings({ db: database.db }),
        getPublicPaymentSettings({ db: database.db, gateway: payments }),
      ]);
      return { platformSettings, paymentSettings };
    },
    findShare: (token) => findSharedChat(database.db, token),
    certificateIssued: (code) => certificateIssued({ db: database.db, code }),
    sessionUser: async (token) => {
      const session = await sessions.resolve(token);
      return session ? toPublicUser(session.user) : null;
    },
  });
  return app;
}
