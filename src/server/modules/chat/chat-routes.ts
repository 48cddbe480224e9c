import type { FastifyInstance } from "fastify";
import { chatsApi as api } from "../../../shared/contracts/chat.js";
import { route } from "../../lib/route.js";
import type { McpToolAccess } from "../tools/tools-service.js";
import { answerOnce } from "./ai-chat-service.js";
import { createChat, getChat, listChats, updateChat } from "./chat-service.js";
import { openEventStream, relayStarted } from "./event-stream.js";
import type { LessonTutor } from "./lesson-tutor.js";
import { addMessage, listMessages, switchBranch } from "./messages-service.js";
import { readCitation } from "./reply-material.js";
import { answerToolCall, editMessage, regenerateReply, startReply } from "./reply-service.js";
import { searchChats } from "./search.js";
import { deleteChat, followStreamingReply, stopReply } from "./stream-service.js";

/**
 * Chats, their messages and their reply streams: owner-only (someone else's chat is a 404). `tutor`: what a lesson's
 * tutor chat is given (the courses module's, handed over by app.ts: decision 039).
 */
export async function chatRoutes(app: FastifyInstance, options: { tutor: LessonTutor; mcp: McpToolAccess }) {
  const { db, platformDeps, generations, config, fileStore, vectors } = app.ctx;
  const replyDeps = {
    db,
    platformDeps,
    generations,
    fileStore,
    vectors,
    tutor: options.tutor,
    mcp: options.mcp,
    maxRunning: config.AI_MAX_CONCURRENT_PER_USER,
  };

  route(app, api.list, async (request) => listChats({ db, who: request.user, ...request.query }));
  route(app, api.search, async (request) => searchChats({ db, who: request.user, ...request.query }));
  route(app, api.create, async (request) => createChat({ db, who: request.user, platformDeps, input: request.body }));
  route(app, api.get, async (request) => getChat({ db, who: request.user, chatId: request.params.id }));
  route(app, api.update, async (request) =>
    updateChat({ db, who: request.user, chatId: request.params.id, input: request.body, mcp: options.mcp }),
  );
  route(app, api.remove, async (request) => deleteChat({ db, who: request.user, generations, chatId: request.params.id }));

  route(app, api.messages, async (request) => listMessages({ db, who: request.user, chatId: request.params.id, ...request.query }));
  route(app, api.addMessage, async (request) => addMessage({ db, who: request.user, chatId: request.params.id, input: request.body }));

  // Everything that can refuse (owner, platform, model) happens before the stream opens: refusals stay JSON.
  route(app, api.reply, async (request, reply) => {
    const started = await startReply({ ...replyDeps, log: request.log, who: request.user, chatId: request.params.id, input: request.body });
    relayStarted(openEventStream(request, reply), started);
  });
  route(app, api.regenerate, async (request, reply) => {
    const started = await regenerateReply({
      ...replyDeps,
      log: request.log,
      who: request.user,
      chatId: request.params.id,
      input: request.body,
    });
    relayStarted(openEventStream(request, reply), started);
  });
  route(app, api.editMessage, async (request, reply) => {
    const { id: chatId, messageId } = request.params;
    const started = await editMessage({ ...replyDeps, log: request.log, who: request.user, chatId, messageId, input: request.body });
    relayStarted(openEventStream(request, reply), started);
  });
  route(app, api.switchBranch, async (request) =>
    switchBranch({ db, who: request.user, chatId: request.params.id, messageId: request.body.messageId }),
  );
  route(app, api.stream, async (request, reply) => {
    const follow = await followStreamingReply({ db, who: request.user, generations, chatId: request.params.id });
    if (!follow) return null;
    await follow(openEventStream(request, reply));
  });
  route(app, api.approveToolCall, async (request, reply) => {
    const { id: chatId, callId } = request.params;
    const started = await answerToolCall({ ...replyDeps, log: request.log, who: request.user, chatId, callId, approved: true });
    relayStarted(openEventStream(request, reply), started);
  });
  route(app, api.denyToolCall, async (request, reply) => {
    const { id: chatId, callId } = request.params;
    const started = await answerToolCall({ ...replyDeps, log: request.log, who: request.user, chatId, callId, approved: false });
    relayStarted(openEventStream(request, reply), started);
  });
  route(app, api.citation, async (request) => readCitation({ db, who: request.user, chatId: request.params.id, ...request.params }));
  route(app, api.stop, async (request) => stopReply({ db, who: request.user, generations, chatId: request.params.id }));

  route(app, api.aiChat, async (request) =>
    answerOnce({
      db,
      who: request.user,
      platformDeps,
      input: request.body,
      timeoutMs: config.AI_FIRST_CHUNK_TIMEOUT_MS * 2,
      log: request.log,
    }),
  );
}
