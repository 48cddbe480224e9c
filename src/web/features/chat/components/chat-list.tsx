import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { errorMessage } from "../../../lib/api-client.js";
import { chatListQuery } from "../api.js";
import { type ChatAction, ChatRow } from "./chat-row.js";

const ROW_HEIGHT = 64;

/** The history: virtualized (only the rows in view exist), loading the next page near the end. */
export function ChatList({
  currentId,
  now,
  onNavigate,
  onAction,
}: {
  currentId: number | null;
  now: Date;
  onNavigate?: () => void;
  onAction: (action: ChatAction) => void;
}) {
  const list = useInfiniteQuery(chatListQuery);
  const platforms = useQuery(aiPlatformsQuery);
  const chats = list.data?.pages.flatMap((page) => page.items) ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = chats.length + (list.hasNextPage ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= chats.length - 1) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, chats.length]);

  if (list.isPending) {
    return (
      <p className="flex items-center gap-2 px-3 py-4 text-sm text-muted-foreground">
        <Spinner className="size-4" label="Loading chats" />
        Loading chats...
      </p>
    );
  }
  if (list.isError) {
    return (
      <div className="grid gap-2 px-3 py-4 text-sm">
        <p className="text-destructive">Your chats could not be loaded: {errorMessage(list.error)}</p>
        <Button variant="outline" size="sm" className="w-fit" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (chats.length === 0) return <p className="px-3 py-4 text-sm text-muted-foreground">No chats yet.</p>;

  return (
    <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      <ul aria-label="Chats" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const chat = chats[item.index];
          return (
            <li
              key={chat ? chat.id : "loader"}
              className="absolute top-0 left-0 w-full py-0.5"
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            >
              {chat ? (
                <ChatRow
                  chat={chat}
                  platformName={platformName(chat.aiPlatform, platforms.data)}
                  selected={chat.id === currentId}
                  now={now}
                  onNavigate={onNavigate}
                  onAction={onAction}
                />
              ) : (
                <p className="flex h-full items-center gap-2 px-3 text-xs text-muted-foreground">
                  <Spinner className="size-3.5" label="Loading more chats" />
                  Loading more chats...
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
