import { type QueryClient, useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import type { Tool } from "../../../../shared/contracts/tools.js";
import { AsksFirstBadge } from "../../../components/asks-first-badge.js";
import {
  DropdownMenuCheckboxItem,
  DropdownMenuGroup,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from "../../../components/ui/dropdown-menu.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { groupTools, switchTool, toolsQuery } from "../../../domain/tools.js";
import { errorMessage } from "../../../lib/api-client.js";
import { cn } from "../../../lib/cn.js";

/** Started when a pointer or the focus reaches the Tools button, so the list is often there when the menu opens. */
export function prefetchTools(client: QueryClient) {
  void client.prefetchQuery(toolsQuery);
}

/** A switch drawn inside a menu item (the item itself is the `menuitemcheckbox` and carries the state). */
function SwitchLook({ on }: { on: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "ml-auto inline-flex h-5 w-9 shrink-0 items-center rounded-full border-2 border-transparent transition-colors",
        on ? "bg-primary" : "bg-input",
      )}
    >
      <span className={cn("block size-4 rounded-full bg-background shadow transition-transform", on ? "translate-x-4" : "translate-x-0")} />
    </span>
  );
}

function ToolItem({ tool, on, toggle }: { tool: Tool; on: boolean; toggle: (on: boolean) => void }) {
  return (
    <DropdownMenuCheckboxItem
      checked={on}
      data-tool-id={tool.id}
      // The menu stays open: several tools are often switched at once.
      onSelect={(event) => event.preventDefault()}
      onCheckedChange={(checked) => toggle(checked === true)}
      className="items-start py-2"
    >
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex items-center gap-1.5 font-medium">
          {tool.name}
          {tool.needsApproval ? <AsksFirstBadge /> : null}
        </span>
        {tool.description ? <span className="line-clamp-2 text-xs text-muted-foreground">{tool.description}</span> : null}
      </span>
      <SwitchLook on={on} />
    </DropdownMenuCheckboxItem>
  );
}

/** The tools the user may use (GET /api/tools), built-in first, then each MCP server's; each a switch for this chat. */
export function ToolsMenuList({ selected, onChange }: { selected: string[]; onChange: (tools: string[]) => void }) {
  const tools = useQuery(toolsQuery);
  if (tools.isPending) return <Spinner className="m-2 size-4" label="Loading tools" />;
  if (tools.isError) {
    return <p className="px-2 py-1.5 text-sm text-destructive">The tools could not be loaded: {errorMessage(tools.error)}</p>;
  }
  if (tools.data.length === 0) {
    return <p className="px-2 py-1.5 text-sm text-muted-foreground">No tools are available on your plan.</p>;
  }
  const on = new Set(selected);
  const toggle = (id: string, next: boolean) => onChange(switchTool(tools.data, selected, id, next));
  return (
    <>
      <DropdownMenuLabel className="text-muted-foreground">Tools the assistant may use in this chat</DropdownMenuLabel>
      {groupTools(tools.data).map((group) => (
        <Fragment key={group.key}>
          <DropdownMenuSeparator />
          <DropdownMenuGroup aria-label={group.label}>
            <DropdownMenuLabel className="py-1 text-xs font-semibold text-muted-foreground">{group.label}</DropdownMenuLabel>
            {group.tools.map((tool) => (
              <ToolItem key={tool.id} tool={tool} on={on.has(tool.id)} toggle={(next) => toggle(tool.id, next)} />
            ))}
          </DropdownMenuGroup>
        </Fragment>
      ))}
    </>
  );
}
