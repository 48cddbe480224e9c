import type { ReactNode, RefObject } from "react";
import { Logo } from "./logo.js";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "./ui/sheet.js";

interface PhoneMenuSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The menu button, which gets the focus back when the panel closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}

/** The panel of `PhoneMenu`, loaded on demand. */
export function PhoneMenuSheet({ open, onOpenChange, title, description, returnFocusTo, children }: PhoneMenuSheetProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <div className="pr-8">
          <Logo />
        </div>
        <SheetTitle className="sr-only">{title}</SheetTitle>
        <SheetDescription className="sr-only">{description}</SheetDescription>
        {children}
      </SheetContent>
    </Sheet>
  );
}
