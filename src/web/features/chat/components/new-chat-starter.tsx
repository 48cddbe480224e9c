import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { DEFAULT_CHAT_TITLE } from "../../../../shared/chat-title.js";
import { Button } from "../../../components/ui/button.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { chatPath } from "../../../lib/paths.js";
import { useCreateChat } from "../api.js";
import { ChatHeader } from "./chat-header.js";
import { ChatStatus } from "./chat-status.js";

/** /chat without an id: create a chat and open it in place of this address. */
export function NewChatStarter() {
  const [, navigate] = useLocation();
  const create = useCreateChat();
  const started = useRef(false);

  const start = () =>
    create.mutate(undefined, {
      onSuccess: (chat) => navigate(chatPath(chat.id), { replace: true }),
      onError: (error) => notify.error("Error", `Failed to create new chat: ${errorMessage(error)}`),
    });

  // biome-ignore lint/correctness/useExhaustiveDependencies: create once on arrival (the ref survives StrictMode's remount)
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, []);

  return (
    <>
      <ChatHeader currentId={null} title={DEFAULT_CHAT_TITLE} />
      {create.isError ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center">
          <p className="text-sm text-muted-foreground">The new chat could not be created.</p>
          <Button variant="outline" onClick={start}>
            Try again
          </Button>
        </div>
      ) : (
        <ChatStatus>Creating chat...</ChatStatus>
      )}
    </>
  );
}
