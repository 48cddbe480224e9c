import { Menu } from "lucide-react";
import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { Button } from "./ui/button.js";

const loadSheet = () => import("./phone-menu-sheet.js");
const PhoneMenuSheet = lazy(() => loadSheet().then((module) => ({ default: module.PhoneMenuSheet })));

interface PhoneMenuProps {
  /** Read by screen readers as the panel's name and description. */
  title: string;
  description: string;
  /** The panel's content; `close` is for its links. */
  children: (close: () => void) => ReactNode;
}

/**
 * The slide-in menu below the md breakpoint (the public header and the signed-in shell). Only the button is
 * on the first screen: the panel and its dialog code load when a finger or pointer comes near the button,
 * or when it is pressed, so phone visitors who never open it download none of it.
 */
export function PhoneMenu({ title, description, children }: PhoneMenuProps) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <PhoneMenuSheet open={open} onOpenChange={setOpen} title={title} description={description} returnFocusTo={button}>
            {children(close)}
          </PhoneMenuSheet>
        </Suspense>
      ) : null}
    </>
  );
}
