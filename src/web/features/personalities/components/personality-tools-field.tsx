import { useQuery } from "@tanstack/react-query";
import { AsksFirstBadge } from "../../../components/asks-first-badge.js";
import { FieldError } from "../../../components/ui/form-field.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { Switch } from "../../../components/ui/switch.js";
import { groupTools, switchTool, toolsQuery } from "../../../domain/tools.js";
import { errorMessage } from "../../../lib/api-client.js";

const ID = "personality-tools";

/**
 * The tools a chat with this personality starts with (issue 34): a switch per tool the user may use, built-in first,
 * then each MCP server's. A saved tool the user can no longer use is dropped at the next save.
 */
export function PersonalityToolsField({
  value,
  error,
  onChange,
}: {
  value: string[];
  error?: string;
  onChange: (tools: string[]) => void;
}) {
  const tools = useQuery(toolsQuery);
  const on = new Set(value);
  const toggle = (id: string, next: boolean) => onChange(switchTool(tools.data ?? [], value, id, next));
  return (
    <fieldset className="grid gap-2" aria-describedby={`${ID}-hint`}>
      <legend className="mb-2 text-sm font-medium leading-none">Tools</legend>
      <p id={`${ID}-hint`} className="-mt-1 text-xs text-muted-foreground">
        Chats started with this personality have these tools on; each chat can change them.
      </p>
      {tools.isPending ? (
        <Spinner className="size-4" label="Loading tools" />
      ) : tools.isError ? (
        <p className="text-sm text-destructive">The tools could not be loaded: {errorMessage(tools.error)}</p>
      ) : tools.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No tools are available on your plan.</p>
      ) : (
        <div className="grid gap-3 rounded-lg border p-3">
          {groupTools(tools.data).map((group) => (
            <div key={group.key} className="grid gap-2">
              <p className="text-xs font-semibold text-muted-foreground">{group.label}</p>
              {group.tools.map((tool) => {
                const id = `${ID}-${tool.id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
                return (
                  <div key={tool.id} className="flex items-start justify-between gap-3">
                    <label htmlFor={id} className="grid min-w-0 gap-0.5 text-sm">
                      <span className="flex items-center gap-1.5 font-medium">
                        {tool.name}
                        {tool.needsApproval ? <AsksFirstBadge /> : null}
                      </span>
                      {tool.description ? <span className="text-xs text-muted-foreground">{tool.description}</span> : null}
                    </label>
                    <Switch id={id} checked={on.has(tool.id)} onCheckedChange={(next) => toggle(tool.id, next)} />
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
      <FieldError id={`${ID}-error`} message={error} />
    </fieldset>
  );
}
