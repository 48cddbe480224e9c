import { createContext, useContext } from "react";
import type { Message } from "../../../../shared/contracts/chat.js";

/** What the messages of an open chat may do besides showing themselves: edit a message, switch versions. */
export type MessageActions = {
  /** A new version of one of the user's messages, answered like a send; false when the server refused it. */
  edit: (message: Message, content: string) => Promise<boolean>;
  /** A reply is being sent or written (or none can be): no edits or switches meanwhile. */
  busy: boolean;
};

/** Given by the chat screen around its message list; without it, messages show no Edit and no versions. */
export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}
