import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { deleteChat, forgetChat } from "../api.js";

/** Deletions waiting one tick, so React's StrictMode remount (dev) cancels instead of deleting. */
const pending = new Map<number, number>();

/**
 * Save Chat History off: a temporary chat is deleted when the user leaves it
 * (another chat, another page). A reload does not leave it: it resumes.
 */
export function useTemporaryChatCleanup(chatId: number, temporary: boolean | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!temporary) return;
    const waiting = pending.get(chatId);
    if (waiting !== undefined) window.clearTimeout(waiting);
    pending.delete(chatId);
    return () => {
      const timer = window.setTimeout(() => {
        pending.delete(chatId);
        forgetChat(client, chatId);
        void deleteChat(chatId).catch(() => undefined);
      }, 0);
      pending.set(chatId, timer);
    };
  }, [chatId, temporary, client]);
}
