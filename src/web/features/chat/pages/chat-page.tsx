import { useEffect } from "react";
import { useParams } from "wouter";
import { ChatHistory } from "../components/chat-history.js";
import { ChatScreen } from "../components/chat-screen.js";
import { ChatLoadFailed } from "../components/chat-status.js";
import { loadMarkdown } from "../components/message-bubbles.js";
import { NewChatStarter } from "../components/new-chat-starter.js";

/** /chat and /chat/{id}: the history beside the chat panel (the history is a sheet below lg). */
export function ChatPage() {
  const { id: raw } = useParams<{ id?: string }>();
  useEffect(() => {
    void loadMarkdown(); // fetch the renderer while the chat loads
  }, []);
  const id = raw !== undefined && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  return (
    <div className="-mx-4 -my-6 flex h-[calc(100dvh-4rem)] sm:-mx-6 md:-my-8 xl:border-x">
      <aside aria-label="Chat history" className="hidden w-72 shrink-0 flex-col border-r bg-muted/30 lg:flex">
        <ChatHistory currentId={id} />
      </aside>
      <section aria-label="Chat" className="flex min-w-0 flex-1 flex-col">
        {raw === undefined ? <NewChatStarter /> : id === null ? <ChatLoadFailed currentId={null} /> : <ChatScreen key={id} chatId={id} />}
      </section>
    </div>
  );
}
