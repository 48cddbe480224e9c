import { Loader2, MessageSquarePlus } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { ChatHeader } from "./chat-header.js";

/** "Loading chat...", "Creating chat...": a spinner with the words. */
export function ChatStatus({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center gap-2 text-sm text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      <p role="status">{children}</p>
    </div>
  );
}

/** 'Error loading chat' / 'Could not load the requested chat.', and a way back. */
export function ChatLoadFailed({ currentId }: { currentId: number | null }) {
  useEffect(() => {
    notify.error("Error loading chat", "Could not load the requested chat.", "chat-load-error");
  }, []);
  return (
    <>
      <ChatHeader currentId={currentId} title="Chat not found" />
      <div className="flex flex-1 flex-col items-center justify-center gap-4 px-6 text-center">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">This chat could not be loaded</h2>
          <p className="text-sm text-muted-foreground">It may have been deleted, or the link is wrong.</p>
        </div>
        <Button asChild>
          <Link href={paths.chat}>
            <MessageSquarePlus aria-hidden="true" />
            New Chat
          </Link>
        </Button>
      </div>
    </>
  );
}
