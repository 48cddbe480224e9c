import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { chatsApi, type Message, type ReplyEnd, type StreamEvent } from "../../../../shared/contracts/chat.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { openReplyStream, readReplyStream } from "../../../lib/reply-stream.js";
import { applyPausedEnded, applyReplyEnd, applyReplyStart, messagesQuery, refreshChatAfterReply, stopReply, usageQuery } from "../api.js";
import { appendDelta, type LiveReply, optimisticMessage, type ReplyRequest, withToolCall } from "../live-reply.js";

const FLUSH_MS = 40;

/**
 * Sending, editing, regenerating, stopping and resuming a chat's reply stream. On
 * mount it asks GET /stream, so a reload in the middle of a reply carries on.
 * A new chat (`chatId` null) is created by `createChat` when its first message
 * is sent; the stream then carries on under the new id (no resume for it).
 */
export function useReplyStream(chatId: number | null, newChat?: { create: () => Promise<number>; onCreated: (id: number) => void }) {
  const client = useQueryClient();
  const idRef = useRef<number | null>(chatId);
  if (chatId !== null) idRef.current = chatId;
  const createdHere = useRef<number | null>(null);
  const [live, setLive] = useState<LiveReply | null>(null);
  const liveRef = useRef<LiveReply | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  const flushTimer = useRef<number | null>(null);
  const stopWanted = useRef(false);

  /** Deltas are drawn at most every FLUSH_MS; everything else at once. */
  const commit = useCallback((next: LiveReply | null, immediate = true) => {
    liveRef.current = next;
    if (immediate) {
      if (flushTimer.current !== null) window.clearTimeout(flushTimer.current);
      flushTimer.current = null;
      setLive(next);
    } else if (flushTimer.current === null) {
      flushTimer.current = window.setTimeout(() => {
        flushTimer.current = null;
        setLive(liveRef.current);
      }, FLUSH_MS);
    }
  }, []);

  const requestStop = useCallback(async () => {
    const id = idRef.current;
    if (id === null) return;
    try {
      await stopReply(id);
    } catch (error) {
      notify.error("Could not stop the reply", errorMessage(error));
    }
  }, []);

  const apply = useCallback(
    (event: StreamEvent) => {
      const current = liveRef.current ?? { phase: "streaming", userMessage: null, assistant: null, replacesId: null };
      switch (event.type) {
        case "start":
          commit({
            ...current,
            phase: "streaming",
            userMessage: event.userMessage ?? current.userMessage,
            assistant: event.assistantMessage,
          });
          // The user's message is stored: the chat (a new one too) is listed and titled now, not at the reply's end.
          if (event.userMessage && idRef.current !== null) applyReplyStart(client, idRef.current, event.userMessage);
          // A send, an edit or a regenerate (not a tool call's answer, which goes on with the paused reply itself).
          if ((event.userMessage || current.replacesId !== null) && idRef.current !== null) applyPausedEnded(client, idRef.current);
          if (stopWanted.current) void requestStop();
          return;
        case "snapshot":
          commit({ ...current, phase: "streaming", assistant: event.assistantMessage });
          return;
        case "delta":
          if (current.assistant?.id === event.messageId) {
            commit({ ...current, assistant: appendDelta(current.assistant, event.offset, event.text) }, false);
          }
          return;
        case "tool":
          if (current.assistant?.id === event.messageId) {
            commit({ ...current, assistant: withToolCall(current.assistant, event.toolCall) });
          }
          return;
        case "done":
          commit({ ...current, assistant: event.assistantMessage });
          return;
        case "error":
          notify.error("Error sending message", event.message);
          return;
      }
    },
    [client, commit, requestStop],
  );

  /**
   * Puts what the reply changed in the stored copies, then drops the live copy: from its done event (`after`: the
   * chat, its branch shown, the usage), nothing read again; without one (a dropped connection, a refusal, the
   * server unable to read them) the messages, the chat and the usage are read again.
   */
  const settle = useCallback(
    async (controller: AbortController, after: ReplyEnd | null) => {
      const id = idRef.current;
      if (id !== null) {
        const placed = after !== null && applyReplyEnd(client, after);
        await Promise.all([
          placed ? null : client.refetchQueries({ queryKey: messagesQuery(id).queryKey }),
          after ? null : refreshChatAfterReply(client, id).catch(() => undefined),
        ]);
      }
      if (controllerRef.current === controller) {
        controllerRef.current = null;
        commit(null);
      }
    },
    [client, commit],
  );

  /** Runs one stream to its end. Throws only a refusal that came before the stream started. */
  const run = useCallback(
    async (
      open: (signal: AbortSignal) => Promise<Response | null>,
      initial: LiveReply | null,
    ): Promise<"streamed" | "refused" | "nothing" | "aborted"> => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      stopWanted.current = false;
      if (initial) commit(initial);
      let response: Response | null;
      try {
        response = await open(controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return "aborted";
        controllerRef.current = null;
        commit(null);
        // Refused before it started (a spent allowance, a reply already running...): the meter reads where it stands.
        void client.invalidateQueries({ queryKey: usageQuery.queryKey });
        throw error;
      }
      if (!response) {
        if (controllerRef.current === controller) {
          controllerRef.current = null;
          commit(null);
        }
        return "nothing";
      }
      let started = false;
      let refused = false;
      let after: ReplyEnd | null = null;
      try {
        await readReplyStream(response, (event) => {
          if (controller.signal.aborted) return;
          if (event.type === "start" || event.type === "snapshot") started = true;
          if (event.type === "error" && !started) refused = true;
          if (event.type === "done") after = event.after;
          apply(event);
        });
      } catch {
        if (controller.signal.aborted) return "aborted";
        // The connection dropped mid-reply: the server keeps generating; the stored copy is fetched below.
      }
      if (controller.signal.aborted) return "aborted";
      await settle(controller, after);
      return refused ? "refused" : "streamed";
    },
    [apply, client, commit, settle],
  );

  /** Sends the user's message. False when the server refused it before storing it (the caller gives the text back). */
  const send = useCallback(
    async (request: ReplyRequest): Promise<boolean> => {
      const initial: LiveReply = {
        phase: "sending",
        userMessage: optimisticMessage(idRef.current ?? 0, request),
        assistant: null,
        replacesId: null,
      };
      try {
        // An error event before `start` means nothing was stored either.
        const open = async (signal: AbortSignal) => {
          let id = idRef.current;
          if (id === null) {
            if (!newChat) throw new Error("No chat to send to");
            id = await newChat.create();
            idRef.current = id;
            createdHere.current = id; // before the address changes: the resume must skip this chat
            newChat.onCreated(id);
          }
          const { shownFiles: _shown, ...body } = request;
          return openReplyStream(chatsApi.reply, { params: { id }, body }, signal);
        };
        return (await run(open, initial)) !== "refused";
      } catch (error) {
        notify.error("Error sending message", errorMessage(error));
        return false;
      }
    },
    [newChat, run],
  );

  /** A new version of the last reply (the earlier one stays as a sibling). */
  const regenerate = useCallback(
    async (replacesId: number, choice: { platformSlug?: string; model?: string }) => {
      const id = idRef.current;
      if (id === null) return;
      try {
        const open = (signal: AbortSignal) => openReplyStream(chatsApi.regenerate, { params: { id }, body: choice }, signal);
        await run(open, { phase: "sending", userMessage: null, assistant: null, replacesId });
      } catch (error) {
        notify.error("Error sending message", errorMessage(error));
      }
    },
    [run],
  );

  /**
   * A new version of one of the user's messages, answered like a send; the earlier exchange stays as a branch.
   * False when the server refused it before storing anything (the caller gives the text back).
   */
  const edit = useCallback(
    async (message: Message, content: string, choice: { platformSlug?: string; model?: string }): Promise<boolean> => {
      const id = idRef.current;
      if (id === null) return false;
      const userMessage = { ...optimisticMessage(id, { content, attachments: [], ...choice }), attachments: message.attachments };
      try {
        const body = { content, ...choice };
        const open = (signal: AbortSignal) =>
          openReplyStream(chatsApi.editMessage, { params: { id, messageId: message.id }, body }, signal);
        return (await run(open, { phase: "sending", userMessage, assistant: null, replacesId: message.id })) !== "refused";
      } catch (error) {
        notify.error("Could not edit the message", errorMessage(error));
        return false;
      }
    },
    [run],
  );

  /** Stops the reply; the stream then ends with the reply marked incomplete. */
  const stop = useCallback(() => {
    if (!liveRef.current) return;
    if (liveRef.current.phase === "sending") {
      stopWanted.current = true; // asked before the reply exists: stop it as soon as it starts
      return;
    }
    void requestStop();
  }, [requestStop]);

  // Resume a reply that is still being generated (after a reload, or coming back to the chat); not for a new
  // chat, nor for the chat this screen just created (its first reply is streaming here already).
  useEffect(() => {
    if (chatId === null || chatId === createdHere.current) return;
    let active = true;
    run((signal) => openReplyStream(chatsApi.stream, { params: { id: chatId } }, signal), null)
      .then((outcome) => {
        if (!active || outcome !== "nothing") return;
        // Nothing running: a reply stored as "streaming" finished meanwhile, so read the final copy.
        const { queryKey } = messagesQuery(chatId);
        const stored = client.getQueryData(queryKey);
        if (stored?.pages.some((page) => page.items.some((m) => m.status === "streaming"))) {
          void client.invalidateQueries({ queryKey });
        }
      })
      .catch(() => undefined); // the chat's own load shows any problem
    return () => {
      active = false;
    };
  }, [chatId, client, run]);

  // Leaving the screen ends its stream (the server keeps generating; coming back resumes it).
  useEffect(() => {
    return () => {
      controllerRef.current?.abort();
      controllerRef.current = null;
      if (flushTimer.current !== null) window.clearTimeout(flushTimer.current);
      flushTimer.current = null;
    };
  }, []);

  /** Follows another reply stream to its end as this screen's (a tool call's answer goes on with one: issue 34). */
  const follow = run;

  return { live, busy: live !== null, send, regenerate, edit, stop, follow };
}
