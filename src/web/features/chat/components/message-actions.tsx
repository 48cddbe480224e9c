import { createContext, useContext } from "react";
import type { Message } from "../../../../shared/contracts/chat.js";
import type { LiveReply } from "../live-reply.js";

/** Follows a reply stream as the chat screen's own (`useReplyStream`'s runner); throws a refusal before it started. */
export type FollowStream = (open: (signal: AbortSignal) => Promise<Response | null>, initial: LiveReply | null) => Promise<unknown>;

/**
 * What the messages of an open chat may do besides showing themselves: edit a message, switch versions, answer a
 * tool call awaiting approval (issue 34: the answer's stream is followed as the screen's reply).
 */
export type MessageActions = {
  /** A new version of one of the user's messages, answered like a send; false when the server refused it. */
  edit: (message: Message, content: string) => Promise<boolean>;
  /** A reply is being sent or written (or none can be): no edits or switches meanwhile. */
  busy: boolean;
  chatId: number;
  follow: FollowStream;
};

/** Given by the chat screen around its message list; without it, messages show no Edit, no versions, no Approve. */
export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}
