import type { FastifyInstance, FastifyReply } from "fastify";
import { openAiApi as api } from "../../../shared/contracts/openai.js";
import { route } from "../../lib/route.js";
import { streamCompletionChunks } from "./completion-stream.js";
import { admitCompletion, wholeCompletion } from "./completions-service.js";
import { createEmbeddings } from "./embeddings-service.js";
import { listV1Models } from "./models-service.js";

/** An abort for the provider's call when the client goes before its answer was written. */
function abortWhenClientLeaves(reply: FastifyReply): AbortController {
  const abort = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort;
}

/**
 * The OpenAI-compatible endpoints (issue 35, decision 051): a personal token's user, through the chat's own model
 * rules, allowance, concurrency limit and streaming path; failures in OpenAI's shape (the contracts' `errorFormat`).
 */
export async function openAiRoutes(app: FastifyInstance): Promise<void> {
  const { db, platformDeps: deps, config } = app.ctx;
  const limits = {
    maxRunning: config.AI_MAX_CONCURRENT_PER_USER,
    firstChunkMs: config.AI_FIRST_CHUNK_TIMEOUT_MS,
    chunkMs: config.AI_CHUNK_TIMEOUT_MS,
  };

  route(app, api.models, async (request) => listV1Models({ db, deps, who: request.user }));

  route(app, api.chatCompletions, async (request, reply) => {
    const abort = abortWhenClientLeaves(reply);
    const admitted = await admitCompletion({ db, deps, who: request.user, input: request.body, limits, log: request.log });
    if (!request.body.stream) return wholeCompletion(admitted, abort.signal);
    await streamCompletionChunks(request, reply, admitted, { includeUsage: !!request.body.stream_options?.include_usage, abort });
    return reply;
  });

  route(app, api.embeddings, async (request) =>
    createEmbeddings({ db, deps, who: request.user, input: request.body, maxRunning: limits.maxRunning, log: request.log }),
  );
}
