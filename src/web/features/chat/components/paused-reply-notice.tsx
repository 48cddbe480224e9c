import { useQueryClient } from "@tanstack/react-query";
import { ShieldQuestion } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { messagesQuery, stopReply } from "../api.js";

/**
 * Above the composer while the reply shown last waits for the user's answer to a tool call (issue 34, decision 050):
 * what a new message does to it (it ends it, the call not run), and a way to end it without one (the chat's Stop).
 */
export function PausedReplyNotice({ chatId }: { chatId: number }) {
  const client = useQueryClient();
  const [ending, setEnding] = useState(false);
  const end = async () => {
    setEnding(true);
    try {
      await stopReply(chatId);
    } catch (error) {
      notify.error("Could not end the reply", errorMessage(error));
    } finally {
      await client.invalidateQueries({ queryKey: messagesQuery(chatId).queryKey });
      setEnding(false);
    }
  };
  return (
    <div role="status" className="mx-auto mb-2 flex w-full max-w-3xl px-3 text-sm sm:px-6">
      <div className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-900 dark:text-amber-200">
        <ShieldQuestion className="size-4 shrink-0" aria-hidden="true" />
        <p className="min-w-0 flex-1">The reply waits for your answer to a tool call. A new message ends it without running the call.</p>
        <button
          type="button"
          className="shrink-0 rounded font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60"
          onClick={() => void end()}
          disabled={ending}
        >
          End the reply
        </button>
      </div>
    </div>
  );
}
