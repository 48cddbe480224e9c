import { defaultRangeExtractor, type Range, useVirtualizer } from "@tanstack/react-virtual";
import { ChevronUp } from "lucide-react";
import { type FocusEvent, memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Message } from "../../../../shared/contracts/chat.js";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { useStickToBottom } from "../hooks/use-stick-to-bottom.js";
import { type LiveReply, mergeLive } from "../live-reply.js";
import { Greeting } from "./greeting.js";
import { KeepRowContext } from "./keep-row.js";
import { AssistantMessage, UserMessage } from "./message-bubbles.js";

type Older = { hasMore: boolean; loading: boolean; load: () => void };

/** One row of the virtual list: the "Load earlier messages" button, a message, or the typing dots of a reply not yet begun. */
type Row = { kind: "older"; key: string } | { kind: "message"; key: string; message: Message } | { kind: "typing"; key: string };

/** Room for a row before it is measured (a short message with its actions). */
const ESTIMATED_ROW_PX = 100;
/** Rows drawn beyond the viewport, above and below. */
const OVERSCAN = 6;
/** The space between messages and around the list (what gap-5 and py-5 were). */
const GAP_PX = 20;

/**
 * The open chat's messages (docs/product.md, Chat), newest at the bottom. While the chat loads, a spinner; an empty chat, the
 * greeting; otherwise the messages as a virtual list (decision 032).
 */
export function MessageList({
  chatId,
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
  /** The chat shown (null: a new chat). Another chat is a new list: measurements and scroll start afresh. */
  chatId: number | null;
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
  const listKey = useListKey(chatId);
  if (loading || (messages.length === 0 && live === null)) {
    return (
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        <div
          role="log"
          aria-label="Messages"
          aria-busy={loading}
          className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-3 py-5 sm:px-6"
        >
          {loading ? (
            <div className="flex justify-center py-10">
              <Spinner label="Loading messages" />
            </div>
          ) : (
            <Greeting name={greetingName} />
          )}
        </div>
      </div>
    );
  }
  return (
    <VirtualMessages
      key={listKey}
      messages={messages}
      live={live}
      user={user}
      markdown={markdown}
      older={older}
      onRegenerate={onRegenerate}
      canReply={canReply}
    />
  );
}

/**
 * The list's identity: a new one for each chat shown. A new chat becoming stored (null, then its id) is the same
 * list, so the reply being streamed into it stays where it is.
 */
function useListKey(chatId: number | null): number {
  const state = useRef({ chatId, key: 0 });
  if (state.current.chatId !== chatId) {
    if (state.current.chatId !== null) state.current.key += 1;
    state.current.chatId = chatId;
  }
  return state.current.key;
}

/** A message row; it draws again only when its own props change, not on every scroll. */
const MessageRow = memo(function MessageRow({
  message,
  user,
  markdown,
  typing,
  canRegenerate,
  onRegenerate,
}: {
  message: Message;
  user: PublicUser | null;
  markdown: boolean;
  typing: boolean;
  canRegenerate: boolean;
  onRegenerate: (messageId: number) => void;
}) {
  return message.role === "user" ? (
    <UserMessage message={message} user={user} />
  ) : (
    <AssistantMessage
      message={message}
      markdown={markdown}
      typing={typing}
      onRegenerate={canRegenerate ? () => onRegenerate(message.id) : undefined}
    />
  );
});

/**
 * The messages as a virtual list (issue 29): only the rows in view, and a few around, are in the page, each
 * measured as it is drawn, so a chat of thousands opens as fast as a short one. It opens at the newest message
 * and follows the bottom while the person is there (hooks/use-stick-to-bottom.ts). A row being edited, or holding the
 * keyboard focus, stays drawn while it is scrolled away.
 */
function VirtualMessages({
  messages,
  live,
  user,
  markdown,
  older,
  onRegenerate,
  canReply,
}: {
  messages: Message[];
  live: LiveReply | null;
  user: PublicUser | null;
  markdown: boolean;
  older: Older;
  onRegenerate: (messageId: number) => void;
  canReply: boolean;
}) {
  const waiting = live !== null && (live.assistant === null || (live.assistant.status === "streaming" && live.assistant.content === ""));
  const last = messages.at(-1);
  const canRegenerate = canReply && live === null && last?.role === "assistant";
  const scroll = useStickToBottom({
    changeKey: `${last?.id}:${last?.content.length}:${last?.status}:${live?.phase}:${last?.toolCalls.map((c) => c.status).join()}`,
    firstKey: messages[0]?.id ?? null,
    sentKey: live?.phase === "sending" ? (live.userMessage?.id ?? live.replacesId) : null,
  });
  const regenerateRef = useRef(onRegenerate);
  regenerateRef.current = onRegenerate;
  const regenerate = useCallback((id: number) => regenerateRef.current(id), []);

  const rows = useMemo(() => {
    const list: Row[] = messages.map((message) => ({ kind: "message", key: String(message.id), message }));
    if (older.hasMore) list.unshift({ kind: "older", key: "older" });
    if (live !== null && live.assistant === null) list.push({ kind: "typing", key: "typing" });
    return list;
  }, [messages, older.hasMore, live]);

  const held = useHeldRows();
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      if (held.keys.size === 0) return shown;
      const drawn = new Set(shown);
      rows.forEach((row, index) => {
        if (held.keys.has(row.key)) drawn.add(index);
      });
      return [...drawn].sort((a, b) => a - b);
    },
    [held.keys, rows],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroll.scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    gap: GAP_PX,
    paddingStart: GAP_PX,
    paddingEnd: GAP_PX,
    // It opens at the bottom: the first rows drawn are the newest ones (from a screen above the end), not the
    // oldest; the layout effect below then puts the scroll position at the very end before the first paint.
    initialOffset: () => Math.max(0, rows.length * (ESTIMATED_ROW_PX + GAP_PX) - window.innerHeight),
  });
  // After the virtualizer wrote its first offset: the newest message is in view in the first frame.
  useLayoutEffect(() => {
    const element = scroll.scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [scroll.scrollRef]);

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
        className="mx-auto w-full max-w-3xl px-3 sm:px-6"
        onFocus={held.onFocus}
        onBlur={held.onBlur}
      >
        <KeepRowContext value={held.keep}>
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              return (
                <div
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  data-row-key={row.key}
                  className="absolute top-0 left-0 flex w-full flex-col"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {row.kind === "older" ? (
                    <Button variant="outline" size="sm" className="self-center" disabled={older.loading} onClick={loadOlder}>
                      {older.loading ? <ButtonSpinner /> : <ChevronUp aria-hidden="true" />}
                      Load earlier messages
                    </Button>
                  ) : row.kind === "typing" ? (
                    <AssistantMessage message={null} markdown={markdown} typing />
                  ) : (
                    <MessageRow
                      message={row.message}
                      user={user}
                      markdown={markdown}
                      typing={row.message === live?.assistant && waiting}
                      canRegenerate={canRegenerate && row.message === last}
                      onRegenerate={regenerate}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </KeepRowContext>
      </div>
    </div>
  );
}

/**
 * The rows kept drawn out of view: those that asked (KeepRowContext: a message being edited) and the one holding
 * the keyboard focus, so Tab goes on from where it was and a focused button is not taken from under it.
 */
function useHeldRows() {
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const keep = useCallback((key: string) => {
    setKept((keys) => new Set(keys).add(key));
    return () =>
      setKept((keys) => {
        const next = new Set(keys);
        next.delete(key);
        return next;
      });
  }, []);
  const keys = useMemo(() => (focused === null ? kept : new Set(kept).add(focused)), [kept, focused]);
  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    setFocused(event.target.closest("[data-row-key]")?.getAttribute("data-row-key") ?? null);
  }, []);
  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setFocused(null);
  }, []);
  return { keys, keep, onFocus, onBlur };
}
