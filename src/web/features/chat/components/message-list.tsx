import { ChevronUp } from "lucide-react";
import type { Message } from "../../../../shared/contracts/chat.js";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { useStickToBottom } from "../hooks/use-stick-to-bottom.js";
import { type LiveReply, mergeLive } from "../live-reply.js";
import { Greeting } from "./greeting.js";
import { AssistantMessage, UserMessage } from "./message-bubbles.js";

type Older = { hasMore: boolean; loading: boolean; load: () => void };

export function MessageList({
  stored,
  live,
  loading,
  user,
  greetingName,
  markdown,
  older,
  onRegenerate,
  canReply = true,
}: {
  stored: Message[];
  live: LiveReply | null;
  loading: boolean;
  user: PublicUser | null;
  greetingName: string | null;
  markdown: boolean;
  older: Older;
  onRegenerate: (messageId: number) => void;
  /** False when no platform can answer: no Regenerate then. */
  canReply?: boolean;
}) {
  const messages = mergeLive(stored, live);
  const waiting = live !== null && (live.assistant === null || (live.assistant.status === "streaming" && live.assistant.content === ""));
  const last = messages.at(-1);
  const canRegenerate = canReply && live === null && last?.role === "assistant";
  const scroll = useStickToBottom({
    changeKey: `${last?.id}:${last?.content.length}:${last?.status}:${live?.phase}:${loading}`,
    firstKey: messages[0]?.id ?? null,
    sentKey: live?.phase === "sending" ? (live.userMessage?.id ?? live.replacesId) : null,
  });
  const loadOlder = () => {
    scroll.keepPosition();
    older.load();
  };

  return (
    <div ref={scroll.scrollRef} className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
      <div
        ref={scroll.contentRef}
        role="log"
        aria-label="Messages"
        aria-busy={live !== null}
        className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-3 py-5 sm:px-6"
      >
        {older.hasMore ? (
          <Button variant="outline" size="sm" className="self-center" disabled={older.loading} onClick={loadOlder}>
            {older.loading ? <ButtonSpinner /> : <ChevronUp aria-hidden="true" />}
            Load earlier messages
          </Button>
        ) : null}
        {loading ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading messages" />
          </div>
        ) : messages.length === 0 && live === null ? (
          <Greeting name={greetingName} />
        ) : null}
        {messages.map((message) =>
          message.role === "user" ? (
            <UserMessage key={message.id} message={message} user={user} />
          ) : (
            <AssistantMessage
              key={message.id}
              message={message}
              markdown={markdown}
              typing={message === live?.assistant && waiting}
              onRegenerate={canRegenerate && message === last ? () => onRegenerate(message.id) : undefined}
            />
          ),
        )}
        {live !== null && live.assistant === null ? <AssistantMessage message={null} markdown={markdown} typing /> : null}
      </div>
    </div>
  );
}
