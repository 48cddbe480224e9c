import { cloneElement, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode, useRef, useState } from "react";

const loadMenu = () => import("./ui/dropdown-menu.js");
type MenuParts = Awaited<ReturnType<typeof loadMenu>>;

/** Keys that open a menu button (WAI-ARIA menu button, as Radix's trigger handles them). */
const OPENING_KEYS = new Set(["Enter", " ", "ArrowDown"]);

interface LazyDropdownMenuProps {
  /** The button: drawn as is before the menu's code is there, then as the menu's trigger (Radix `asChild`). */
  trigger: ReactElement<Record<string, unknown>>;
  modal?: boolean;
  /** More code or data the menu needs, fetched at the same moment as the menu's code (a pointer or the focus arrives). */
  preload?: () => void;
  /** The menu, drawn with the loaded parts: `(ui) => <ui.DropdownMenuContent>...</ui.DropdownMenuContent>`. */
  children: (ui: MenuParts) => ReactNode;
}

/**
 * A dropdown menu whose code (Radix DropdownMenu with its positioning, about 20 KiB gzip) is not on the first
 * screen (decision 021): only the button is. The code loads when a pointer or the focus reaches the button,
 * and a press that comes before it arrives (pointer, Enter, Space, ArrowDown) opens the menu as soon as it
 * does; the focus stays on the button through the swap, so keyboard use is unchanged.
 */
export function LazyDropdownMenu({ trigger, modal, preload, children }: LazyDropdownMenuProps) {
  const [ui, setUi] = useState<MenuParts | null>(null);
  const [openAtLoad, setOpenAtLoad] = useState(false);
  const light = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  const load = () => {
    preload?.();
    void loadMenu().then(
      (parts) => {
        refocus.current = light.current !== null && document.activeElement === light.current;
        setUi(() => parts);
      },
      () => undefined, // offline: the button stays, and the next hover or press tries again
    );
  };
  if (!ui) {
    const open = () => {
      setOpenAtLoad(true);
      load();
    };
    return cloneElement(trigger, {
      ref: light,
      "aria-haspopup": "menu",
      "aria-expanded": false,
      "data-state": "closed",
      onPointerEnter: load,
      onFocus: load,
      onPointerDown: (event: PointerEvent) => {
        if (event.button === 0 && !event.ctrlKey) open();
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        refocus.current = true;
        open();
      },
    });
  }
  return (
    <ui.DropdownMenu modal={modal} defaultOpen={openAtLoad}>
      <ui.DropdownMenuTrigger
        asChild
        ref={(node: HTMLElement | null) => {
          if (node && refocus.current && !openAtLoad) node.focus();
          refocus.current = false;
        }}
      >
        {trigger}
      </ui.DropdownMenuTrigger>
      {children(ui)}
    </ui.DropdownMenu>
  );
}
