import { type KeyboardEvent, type ReactNode, useId } from "react";

export type AuthTab = "login" | "register";

const TABS: { value: AuthTab; label: string }[] = [
  { value: "login", label: "Login" },
  { value: "register", label: "Register" },
];

/**
 * The Login / Register switch: the WAI-ARIA tabs pattern (arrow keys, Home and End move and select) in a few
 * lines, styled as components/ui/tabs.tsx, so /auth's first screen does not carry Radix Tabs (decision 017).
 * Only the chosen panel is mounted, as with Radix.
 */
export function AuthTabs({
  value,
  onChange,
  onRegisterIntent,
  children,
}: {
  value: AuthTab;
  onChange: (tab: AuthTab) => void;
  /** The pointer or the focus reached the Register tab: a moment to start loading its form. */
  onRegisterIntent: () => void;
  children: ReactNode;
}) {
  const id = useId();
  const tabId = (tab: AuthTab) => `${id}-tab-${tab}`;
  const panelId = (tab: AuthTab) => `${id}-panel-${tab}`;
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((tab) => tab.value === value);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % TABS.length
        : event.key === "ArrowLeft"
          ? (index - 1 + TABS.length) % TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? TABS.length - 1
              : -1;
    const tab = TABS[next];
    if (!tab) return;
    event.preventDefault();
    onChange(tab.value);
    document.getElementById(tabId(tab.value))?.focus();
  };
  return (
    <div>
      <div
        role="tablist"
        aria-orientation="horizontal"
        className="mb-2 grid h-10 w-full grid-cols-2 items-center rounded-lg bg-muted p-1 text-muted-foreground"
        onKeyDown={move}
      >
        {TABS.map((tab) => {
          const active = tab.value === value;
          return (
            <button
              key={tab.value}
              id={tabId(tab.value)}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={panelId(tab.value)}
              data-state={active ? "active" : "inactive"}
              tabIndex={active ? 0 : -1}
              onClick={() => onChange(tab.value)}
              onPointerEnter={tab.value === "register" ? onRegisterIntent : undefined}
              onFocus={tab.value === "register" ? onRegisterIntent : undefined}
              className="inline-flex h-full flex-1 items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 text-sm font-medium transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm dark:data-[state=active]:bg-input/30"
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(value)} aria-labelledby={tabId(value)} className="mt-4 outline-none">
        {children}
      </div>
    </div>
  );
}
