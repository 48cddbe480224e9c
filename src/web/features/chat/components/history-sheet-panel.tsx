import type { RefObject } from "react";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../../components/ui/sheet.js";
import type { ChatLayout } from "../hooks/use-chat-layout.js";
import { ChatHistory } from "./chat-history.js";

interface HistorySheetPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  currentId: number | null;
  layout: ChatLayout | null;
  /** The History button, which gets the focus back when the sheet closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/** The history's slide-in sheet below lg (`HistorySheet` in chat-header.tsx), loaded when it first opens. */
export function HistorySheetPanel({ open, onOpenChange, currentId, layout, returnFocusTo }: HistorySheetPanelProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        className="gap-0 p-0 pt-12"
        onOpenAutoFocus={(event) => {
          if (!layout?.sheetSearch.current) return;
          event.preventDefault();
          (event.currentTarget as HTMLElement).querySelector<HTMLInputElement>('input[type="search"]')?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <SheetTitle className="absolute top-4 left-4 text-base font-semibold">Chat history</SheetTitle>
        <SheetDescription className="sr-only">Start a new chat, search your chats or open one.</SheetDescription>
        <ChatHistory currentId={currentId} onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
