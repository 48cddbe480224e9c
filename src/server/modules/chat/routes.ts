import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  aiChatBodySchema,
  createChatBodySchema,
  createMessageBodySchema,
  listQuerySchema,
  messagesQuerySchema,
  regenerateBodySchema,
  searchQuerySchema,
  sendReplyBodySchema,
  updateChatBodySchema,
} from "../../../shared/contracts/chat.js";
import { idParamsSchema, NEXT_CURSOR_HEADER } from "../../../shared/contracts/common.js";
import { requireUser } from "../../plugins/session.js";
import { answerOnce } from "./ai-chat-service.js";
import { toChat, toMessage } from "./chat-view.js";
import { openEventStream, relayLocal, relayRemote } from "./event-stream.js";
import { addMessage, findOwnMessage, listMessages } from "./messages-service.js";
import { findStreamingReply, regenerateReply, type StartedReply, startReply } from "./reply-service.js";
import { searchChats } from "./search.js";
import { createChat, deleteChat, findOwnChat, listChats, updateChat } from "./service.js";

export async function chatRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, platformDeps, generations, config } = app.ctx;
  const replyDeps = { db, platformDeps, generations };
  const params = { params: idParamsSchema };

  app.get("/api/chats", { schema: { querystring: listQuerySchema } }, async (request, reply) => {
    const page = await listChats({ db, userId: requireUser(request).id, ...request.query });
    if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.items;
  });

  app.get("/api/chats/search", { schema: { querystring: searchQuerySchema } }, async (request) =>
    searchChats({ db, userId: requireUser(request).id, ...request.query }),
  );

  app.post("/api/chats", { schema: { body: createChatBodySchema } }, async (request, reply) =>
    reply.status(201).send(await createChat({ db, userId: requireUser(request).id, input: request.body })),
  );

  app.get("/api/chats/:id", { schema: params }, async (request) =>
    toChat(await findOwnChat(db, requireUser(request).id, request.params.id)),
  );

  app.patch("/api/chats/:id", { schema: { ...params, body: updateChatBodySchema } }, async (request) =>
    updateChat({ db, user: requireUser(request), chatId: request.params.id, input: request.body }),
  );

  app.delete("/api/chats/:id", { schema: params }, async (request, reply) => {
    const userId = requireUser(request).id;
    const streaming = await findStreamingReply(db, userId, request.params.id);
    if (streaming) await generations.stop(streaming.id, streaming.generationOwner);
    await deleteChat({ db, userId, chatId: request.params.id });
    return reply.status(204).send();
  });

  app.get("/api/chats/:id/messages", { schema: { ...params, querystring: messagesQuerySchema } }, async (request, reply) => {
    const page = await listMessages({ db, userId: requireUser(request).id, chatId: request.params.id, ...request.query });
    if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.items;
  });

  app.post("/api/chats/:id/messages", { schema: { ...params, body: createMessageBodySchema } }, async (request, reply) =>
    reply.status(201).send(await addMessage({ db, userId: requireUser(request).id, chatId: request.params.id, input: request.body })),
  );

  /** Everything that can refuse (owner, platform, model) happens before the stream opens: refusals stay JSON. */
  const streamStarted = (
    request: Parameters<typeof openEventStream>[0],
    reply: Parameters<typeof openEventStream>[1],
    started: StartedReply,
  ) => {
    const stream = openEventStream(request, reply);
    relayLocal(stream, started.generation, { type: "start", userMessage: started.userMessage, assistantMessage: started.assistantMessage });
  };

  app.post("/api/chats/:id/reply", { schema: { ...params, body: sendReplyBodySchema } }, async (request, reply) => {
    const started = await startReply(replyDeps, { user: requireUser(request), chatId: request.params.id, input: request.body });
    streamStarted(request, reply, started);
  });

  app.post("/api/chats/:id/regenerate", { schema: { ...params, body: regenerateBodySchema } }, async (request, reply) => {
    const started = await regenerateReply(replyDeps, {
      user: requireUser(request),
      chatId: request.params.id,
      input: request.body ?? {},
    });
    streamStarted(request, reply, started);
  });

  /** Resume: the reply being written in this chat, from what has arrived so far. 204 when none is. */
  app.get("/api/chats/:id/stream", { schema: params }, async (request, reply) => {
    const row = await findStreamingReply(db, requireUser(request).id, request.params.id);
    if (!row) return reply.status(204).send();
    const local = generations.get(row.id);
    const stream = openEventStream(request, reply);
    if (local) return relayLocal(stream, local, { type: "snapshot", assistantMessage: { ...toMessage(row), content: local.content } });
    if (generations.mirror) return relayRemote(stream, generations, toMessage(row), row.generationOwner);
    // One instance and nobody writing it: a reply left over from before a restart. Close it and show it.
    await generations.recoverOrphans();
    const closed = await findOwnMessage(db, row.id);
    stream.send({ type: "snapshot", assistantMessage: closed ?? toMessage(row) });
    if (closed) stream.send({ type: "done", assistantMessage: closed });
    stream.end();
  });

  app.post("/api/chats/:id/stop", { schema: params }, async (request) => {
    const row = await findStreamingReply(db, requireUser(request).id, request.params.id);
    if (!row) return { stopped: false };
    await generations.stop(row.id, row.generationOwner);
    return { stopped: true };
  });

  app.post("/api/ai/chat", { schema: { body: aiChatBodySchema } }, async (request) =>
    answerOnce({ db, platformDeps, user: requireUser(request), input: request.body, timeoutMs: config.AI_FIRST_CHUNK_TIMEOUT_MS * 2 }),
  );
}
