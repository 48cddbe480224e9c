import { useVirtualizer } from "@tanstack/react-virtual";
import { ChevronUp } from "lucide-react";
import { type ReactNode, type RefObject, useLayoutEffect } from "react";
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

  const olderButton = older.hasMore ? (
    <Button variant="outline" size="sm" className="self-center" disabled={older.loading} onClick={loadOlder}>
      {older.loading ? <ButtonSpinner /> : <ChevronUp aria-hidden="true" />}
      Load earlier messages
    </Button>
  ) : null;
  const rows: ReactNode[] = messages.map((message) =>
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
  );
  const keys: string[] = messages.map((message) => String(message.id));
  if (live !== null && live.assistant === null) {
    rows.push(<AssistantMessage key="typing" message={null} markdown={markdown} typing />);
    keys.push("typing");
  }
  if (olderButton) {
    rows.unshift(<div className="flex flex-col">{olderButton}</div>);
    keys.unshift("older");
  }
  const empty = messages.length === 0 && live === null;

  return (
    <div ref={scroll.scrollRef} className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
      <div
        ref={scroll.contentRef}
        role="log"
        aria-label="Messages"
        aria-busy={live !== null}
        className="mx-auto w-full max-w-3xl px-3 sm:px-6"
      >
        {loading || empty ? (
          <div className="flex flex-col gap-5 py-5">
            {olderButton}
            {loading ? (
              <div className="flex justify-center py-10">
                <Spinner label="Loading messages" />
              </div>
            ) : (
              <Greeting name={greetingName} />
            )}
          </div>
        ) : (
          <VirtualRows rows={rows} keys={keys} scrollRef={scroll.scrollRef} />
        )}
      </div>
    </div>
  );
}

/** Room for a message before it is measured (a short exchange). */
const ESTIMATED_ROW_PX = 120;
/** Rows drawn beyond the viewport, above and below. */
const OVERSCAN = 6;
/** The space between messages and around the list (Tailwind gap-5, py-5). */
const GAP_PX = 20;

/**
 * The messages as a virtual list (issue 29): only those in view (and a few around) exist, each measured as it
 * is drawn, so a chat of thousands opens as fast as a short one. It starts at the bottom, where a chat opens.
 */
function VirtualRows({ rows, keys, scrollRef }: { rows: ReactNode[]; keys: string[]; scrollRef: RefObject<HTMLDivElement | null> }) {
  // Before the virtualizer reads the scroll position (its layout effects come after this one): the list opens
  // at its end, so the rows it draws before the first paint are the newest ones (the hook then follows the
  // bottom as rows are measured).
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [scrollRef]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => keys[index] ?? index,
    overscan: OVERSCAN,
    gap: GAP_PX,
    paddingStart: GAP_PX,
    paddingEnd: GAP_PX,
  });
  return (
    <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <div
          key={item.key}
          ref={virtualizer.measureElement}
          data-index={item.index}
          className="absolute top-0 left-0 flex w-full flex-col"
          style={{ transform: `translateY(${item.start}px)` }}
        >
          {rows[item.index]}
        </div>
      ))}
    </div>
  );
}
