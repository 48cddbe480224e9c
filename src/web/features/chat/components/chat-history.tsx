import { Plus, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { Input } from "../../../components/ui/input.js";
import { paths } from "../../../lib/paths.js";
import { useDebouncedValue } from "../hooks/use-debounced-value.js";
import { ChatList } from "./chat-list.js";
import type { ChatAction } from "./chat-row.js";
import { ChatSearchResults } from "./chat-search-results.js";
import { DeleteChatDialog } from "./delete-chat-dialog.js";
import { RenameChatDialog } from "./rename-chat-dialog.js";

const SEARCH_DELAY_MS = 250;

/** "Today" and "Yesterday" roll over while the page stays open. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** The history: New Chat, search, and the list of chats (sidebar on desktop, sheet on small screens). */
export function ChatHistory({ currentId, onNavigate }: { currentId: number | null; onNavigate?: () => void }) {
  const [, navigate] = useLocation();
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [action, setAction] = useState<ChatAction | null>(null);
  const now = useNow();

  // A new chat is only a page until its first message: nothing is stored here.
  const newChat = () => {
    onNavigate?.();
    navigate(paths.chat);
  };

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="grid gap-2 p-3">
        <Button onClick={newChat} className="w-full">
          <Plus aria-hidden="true" />
          New Chat
        </Button>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search chats"
            placeholder="Search chats..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape" && search) {
                event.stopPropagation();
                setSearch("");
              }
            }}
            className="h-9 pl-8"
          />
        </div>
      </div>
      {query ? (
        <ChatSearchResults query={query} currentId={currentId} now={now} onNavigate={onNavigate} />
      ) : (
        <ChatList currentId={currentId} now={now} onNavigate={onNavigate} onAction={setAction} />
      )}
      {action?.kind === "rename" ? <RenameChatDialog chat={action.chat} onClose={() => setAction(null)} /> : null}
      {action?.kind === "delete" ? (
        <DeleteChatDialog
          chat={action.chat}
          onClose={() => setAction(null)}
          onDeleted={(chat) => {
            if (chat.id !== currentId) return;
            onNavigate?.();
            navigate(paths.chat);
          }}
        />
      ) : null}
    </div>
  );
}
