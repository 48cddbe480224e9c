import type { QueryClient } from "@tanstack/react-query";
import { chatsApi, type Message } from "../../../shared/contracts/chat.js";
import { errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { openReplyStream } from "../../lib/reply-stream.js";
import { messagesQuery } from "./api.js";
import type { MessageActions } from "./components/message-actions.js";

/** The paused reply as it shows once answered, until the server's first event: going on, the call running or denied. */
export function answeredCopy(paused: Message, callId: string, approve: boolean): Message {
  return {
    ...paused,
    status: "streaming",
    toolCalls: paused.toolCalls.map((c) => (c.id === callId ? { ...c, status: approve ? "running" : "denied" } : c)),
  };
}

/**
 * Approve or Deny a tool call the reply paused on (issue 34). The answer's own response is the reply going on
 * (streamed like a regenerate, by whichever instance took it), followed as the screen's reply stream. A refusal
 * (answered already in another tab, the chat gone) says so and reads the messages again to show how it stands.
 */
export async function answerToolCall(client: QueryClient, actions: MessageActions, callId: string, approve: boolean) {
  const { chatId: id, follow } = actions;
  const { queryKey } = messagesQuery(id);
  const paused = client
    .getQueryData(queryKey)
    ?.pages.flatMap((page) => page.items)
    .find((m) => m.toolCalls.some((c) => c.id === callId));
  const endpoint = approve ? chatsApi.approveToolCall : chatsApi.denyToolCall;
  try {
    const open = (signal: AbortSignal) => openReplyStream(endpoint, { params: { id, callId } }, signal);
    await follow(open, {
      phase: "streaming",
      userMessage: null,
      assistant: paused ? answeredCopy(paused, callId, approve) : null,
      replacesId: null,
    });
  } catch (error) {
    notify.error(approve ? "Could not approve the tool call" : "Could not deny the tool call", errorMessage(error));
    void client.invalidateQueries({ queryKey });
  }
}
