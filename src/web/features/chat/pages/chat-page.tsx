import { useEffect, useRef } from "react";
import { useLocation, useParams } from "wouter";
import { chatPath } from "../../../lib/paths.js";
import { ChatHistory } from "../components/chat-history.js";
import { ChatScreen } from "../components/chat-screen.js";
import { ChatLoadFailed } from "../components/chat-status.js";
import { loadMarkdown } from "../components/message-bubbles.js";

/** /chat and /chat/{id}: the history beside the chat panel (the history is a sheet below lg). */
export function ChatPage() {
  const { id: raw } = useParams<{ id?: string }>();
  useEffect(() => {
    void loadMarkdown(); // fetch the renderer while the chat loads
  }, []);
  const id = raw !== undefined && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const [, navigate] = useLocation();
  // /chat is a new chat that exists only here until its first message creates it; the screen then stays the
  // same (same key, nothing lost) while the address becomes /chat/{id}. Back on /chat, a fresh new chat.
  // Refs, not state: the address changes in the same step as the id is known, and no render in between may
  // see one without the other (that would mount a second screen and lose the reply being streamed).
  const created = useRef<number | null>(null);
  const draftKey = useRef(0);
  if (raw === undefined && created.current !== null) {
    created.current = null;
    draftKey.current += 1;
  }
  const isDraft = raw === undefined || (id !== null && id === created.current);
  const onCreated = (chatId: number) => {
    created.current = chatId;
    navigate(chatPath(chatId), { replace: true });
  };
  return (
    <div className="-mx-4 -my-6 flex h-[calc(100dvh-4rem)] sm:-mx-6 md:-my-8 xl:border-x">
      <aside aria-label="Chat history" className="hidden w-72 shrink-0 flex-col border-r bg-muted/30 lg:flex">
        <ChatHistory currentId={id} />
      </aside>
      <section aria-label="Chat" className="flex min-w-0 flex-1 flex-col">
        {isDraft ? (
          <ChatScreen key={`new-${draftKey.current}`} chatId={id} onCreated={onCreated} />
        ) : id === null ? (
          <ChatLoadFailed currentId={null} />
        ) : (
          <ChatScreen key={id} chatId={id} />
        )}
      </section>
    </div>
  );
}
