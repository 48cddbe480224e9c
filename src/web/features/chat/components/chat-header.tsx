import { History, Keyboard, PanelLeftClose, PanelLeftOpen, Settings, Share2 } from "lucide-react";
import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { paths } from "../../../lib/paths.js";
import { useChatLayout } from "../hooks/use-chat-layout.js";
import { useApplePlatform } from "../hooks/use-chat-shortcuts.js";
import { ExportChatMenu } from "./export-chat-menu.js";

const loadSheet = () => import("./history-sheet-panel.js");
const HistorySheetPanel = lazy(() => loadSheet().then((m) => ({ default: m.HistorySheetPanel })));

/**
 * Below lg the history lives in a slide-in sheet (opened by its button, or Ctrl/⌘+K to search). Only the button
 * is on the first screen: the sheet's dialog code loads when a pointer or the focus reaches it, or when it opens.
 */
function HistorySheet({ currentId }: { currentId: number | null }) {
  const layout = useChatLayout();
  const [ownOpen, setOwnOpen] = useState(false);
  const open = layout ? layout.sheetOpen : ownOpen;
  const setOpen = layout ? layout.setSheetOpen : setOwnOpen;
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="size-9 shrink-0 lg:hidden"
        aria-label="History"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => setOpen(true)}
      >
        <History className="size-5" aria-hidden="true" />
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <HistorySheetPanel open={open} onOpenChange={setOpen} currentId={currentId} layout={layout} returnFocusTo={button} />
        </Suspense>
      ) : null}
    </>
  );
}

const loadShareDialog = () => import("./share-chat-dialog.js");
const ShareChatDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareChatDialog })));

/** "Share link": the dialog's code loads when a pointer or the focus reaches the button, or when it opens (issue 33). */
function ShareButton({ chatId }: { chatId: number }) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="size-9 shrink-0"
        aria-label="Share link"
        title="Share link"
        aria-haspopup="dialog"
        onPointerEnter={() => void loadShareDialog()}
        onFocus={() => void loadShareDialog()}
        onClick={() => setOpen(true)}
      >
        <Share2 className="size-5" aria-hidden="true" />
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <ShareChatDialog chatId={chatId} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}

/** From lg: hides or shows the history rail (remembered). */
function RailToggle() {
  const layout = useChatLayout();
  const apple = useApplePlatform();
  if (!layout) return null;
  const label = layout.railCollapsed ? "Show chat history" : "Hide chat history";
  return (
    <Button
      variant="ghost"
      size="icon"
      className="hidden size-9 shrink-0 text-muted-foreground lg:inline-flex"
      aria-label={label}
      aria-expanded={!layout.railCollapsed}
      title={`${label} (${apple ? "⌘⇧S" : "Ctrl+Shift+S"})`}
      onClick={layout.toggleRail}
    >
      {layout.railCollapsed ? (
        <PanelLeftOpen className="size-5" aria-hidden="true" />
      ) : (
        <PanelLeftClose className="size-5" aria-hidden="true" />
      )}
    </Button>
  );
}

/** History (rail toggle or sheet), the chat's title, the pickers, the chat's own actions, the shortcuts and a Settings link. */
export function ChatHeader({
  currentId,
  title,
  picker,
  actions,
}: {
  currentId: number | null;
  title: string;
  picker?: ReactNode;
  /** A stored chat's knowledge (its collections' badge and menu). */
  actions?: ReactNode;
}) {
  const layout = useChatLayout();
  return (
    <header className="flex shrink-0 flex-wrap items-center gap-x-2 border-b px-2 sm:h-14 sm:flex-nowrap sm:px-4">
      <HistorySheet currentId={currentId} />
      <RailToggle />
      {/* What fits of the title, cut with an ellipsis; the whole of it on hover. */}
      <h1 title={title} className="h-14 min-w-0 flex-1 truncate text-base leading-[3.5rem] font-semibold">
        {title}
      </h1>
      {/*
        Below sm the first row is the history button, the title and Settings only (decision 060: with the chat's actions
        beside it, a phone showed "W…"); the pickers and the chat's actions take the rows under it.
      */}
      <div aria-hidden="true" className="basis-full max-sm:order-2 sm:hidden" />
      <div className="flex min-h-11 min-w-0 items-center gap-2 max-sm:order-3 max-sm:flex-1 max-sm:pb-2">{picker}</div>
      {layout ? (
        <Button
          variant="ghost"
          size="icon"
          className="hidden size-9 shrink-0 text-muted-foreground md:inline-flex"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => layout.setShortcutsOpen(true)}
        >
          <Keyboard className="size-5" aria-hidden="true" />
        </Button>
      ) : null}
      <div className="flex shrink-0 items-center gap-x-2 max-sm:order-4 max-sm:ml-auto max-sm:pb-2">
        {actions}
        {currentId !== null ? <ShareButton chatId={currentId} /> : null}
        {currentId !== null ? <ExportChatMenu chatId={currentId} /> : null}
      </div>
      <Button asChild variant="ghost" size="icon" className="size-9 shrink-0">
        <Link href={paths.settings} aria-label="Settings" title="Settings">
          <Settings className="size-5" aria-hidden="true" />
        </Link>
      </Button>
    </header>
  );
}
