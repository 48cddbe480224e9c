import { History, Settings } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "../../../components/ui/sheet.js";
import { paths } from "../../../lib/paths.js";
import { ChatHistory } from "./chat-history.js";

/** Below lg the history lives in a slide-in sheet. */
function HistorySheet({ currentId }: { currentId: number | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="size-9 shrink-0 lg:hidden" aria-label="History">
          <History className="size-5" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent className="gap-0 p-0 pt-12">
        <SheetTitle className="absolute top-4 left-4 text-base font-semibold">Chat history</SheetTitle>
        <SheetDescription className="sr-only">Start a new chat, search your chats or open one.</SheetDescription>
        <ChatHistory currentId={currentId} onNavigate={() => setOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}

/** History (small screens), the chat's title, the model picker and a Settings shortcut. */
export function ChatHeader({ currentId, title, picker }: { currentId: number | null; title: string; picker?: ReactNode }) {
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b px-2 sm:px-4">
      <HistorySheet currentId={currentId} />
      <h1 className="sr-only sm:not-sr-only sm:min-w-0 sm:flex-1 sm:truncate sm:text-base sm:font-semibold">{title}</h1>
      <span className="flex-1 sm:hidden" />
      {picker}
      <Button asChild variant="ghost" size="icon" className="size-9 shrink-0">
        <Link href={paths.settings} aria-label="Settings" title="Settings">
          <Settings className="size-5" aria-hidden="true" />
        </Link>
      </Button>
    </header>
  );
}
