import { createContext, useContext } from "react";

/** What a tool card awaiting approval may do: answer it (Approve or Deny); the reply then goes on. */
export type ToolCallActions = {
  /** Resolves once the server took the answer (a failure is said in a toast and resolves too). */
  answer: (callId: string, approve: boolean) => Promise<void>;
};

/** Given by the chat screen around its message list; without it, a paused call shows no buttons. */
export const ToolCallActionsContext = createContext<ToolCallActions | null>(null);

export function useToolCallActions(): ToolCallActions | null {
  return useContext(ToolCallActionsContext);
}
