import { MessageSquarePlus } from "lucide-react";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { chatPath } from "../../../lib/paths.js";
import { useContinueSharedChat } from "../share-api.js";

/**
 * "Continue this chat" on a shared page, for a signed-in viewer (issue 33): the snapshot becomes a new chat of theirs,
 * titled "Shared: …" so it says where it came from, and opens.
 */
export function ContinueSharedChat({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const copy = useContinueSharedChat();
  const start = () =>
    copy.mutate(token, {
      onSuccess: ({ chatId }) => {
        notify.success("Chat copied", "A copy of the shared chat is now in your chats. Carry on where it ended.");
        navigate(chatPath(chatId));
      },
      onError: (error) => notify.error("Could not continue this chat", errorMessage(error)),
    });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={start} disabled={copy.isPending}>
        {copy.isPending ? <ButtonSpinner /> : <MessageSquarePlus aria-hidden="true" />}
        Continue this chat
      </Button>
      <p className="text-sm text-muted-foreground">Copies this conversation into your own chats.</p>
    </div>
  );
}
