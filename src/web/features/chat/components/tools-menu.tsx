import { useQueryClient } from "@tanstack/react-query";
import { Wrench } from "lucide-react";
import { lazy, Suspense } from "react";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { ComposerIconButton } from "./composer-icon-button.js";

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
  return (
    <LazyDropdownMenu
      preload={preload}
      trigger={
        <ComposerIconButton
          icon={<Wrench aria-hidden="true" />}
          name="Tools"
          count={selected.length}
          countSuffix="on"
          disabled={disabled}
        />
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
