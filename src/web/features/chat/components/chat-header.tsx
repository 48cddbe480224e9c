import { History, Keyboard, PanelLeftClose, PanelLeftOpen, Settings } from "lucide-react";
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

/** History (rail toggle or sheet), the chat's title, the pickers, the shortcuts and a Settings link. */
export function ChatHeader({ currentId, title, picker }: { currentId: number | null; title: string; picker?: ReactNode }) {
  const layout = useChatLayout();
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b px-2 sm:px-4">
      <HistorySheet currentId={currentId} />
      <RailToggle />
      <h1 className="sr-only sm:not-sr-only sm:min-w-0 sm:flex-1 sm:truncate sm:text-base sm:font-semibold">{title}</h1>
      <span className="flex-1 sm:hidden" />
      {picker}
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
      {currentId !== null ? <ExportChatMenu chatId={currentId} /> : null}
      <Button asChild variant="ghost" size="icon" className="size-9 shrink-0">
        <Link href={paths.settings} aria-label="Settings" title="Settings">
          <Settings className="size-5" aria-hidden="true" />
        </Link>
      </Button>
    </header>
  );
}
