import { useQueryClient } from "@tanstack/react-query";
import { Wrench } from "lucide-react";
import { lazy, Suspense } from "react";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { cn } from "../../../lib/cn.js";

// The list (GET /api/tools and its switches) is not on the chat's first screen: it loads with the menu's code.
const loadList = () => import("./tools-menu-list.js");
const ToolsMenuList = lazy(() => loadList().then((m) => ({ default: m.ToolsMenuList })));

/**
 * "Tools" beside the message box: the tools switched on for this chat, and a menu of the tools the user may use,
 * each a switch (a `menuitemcheckbox`: arrows move, Space or Enter turns it on or off, the menu stays open). Only
 * the button is on the first screen (decision 021); the list's code and its read start when a pointer or the
 * focus reaches it.
 */
export function ToolsMenu({
  selected,
  disabled,
  onChange,
}: {
  selected: string[];
  disabled?: boolean;
  onChange: (tools: string[]) => void;
}) {
  const client = useQueryClient();
  const preload = () =>
    void loadList().then(
      (m) => m.prefetchTools(client),
      () => undefined,
    );
  const count = selected.length;
  return (
    <LazyDropdownMenu
      preload={preload}
      trigger={
        <Button
          variant="ghost"
          size="icon"
          className={cn("relative size-[38px] shrink-0 text-muted-foreground", count > 0 && "text-primary")}
          title="Tools"
          disabled={disabled}
        >
          <Wrench aria-hidden="true" />
          {/* Its name is "Tools" or "Tools, 2 on": the count is the part of it that shows. */}
          <span className="sr-only">{count > 0 ? "Tools, " : "Tools"}</span>
          {count > 0 ? (
            <>
              <span className="absolute top-0.5 right-0.5 flex min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-4 font-semibold text-primary-foreground">
                {count}
              </span>
              <span className="sr-only"> on</span>
            </>
          ) : null}
        </Button>
      }
    >
      {(ui) => (
        <ui.DropdownMenuContent align="start" side="top" className="w-80 max-w-[calc(100vw-1.5rem)]">
          <Suspense fallback={<Spinner className="m-2 size-4" label="Loading tools" />}>
            <ToolsMenuList selected={selected} onChange={onChange} />
          </Suspense>
        </ui.DropdownMenuContent>
      )}
    </LazyDropdownMenu>
  );
}
