import type { AdminMcpServer, AdminMcpTool } from "../../../../../shared/contracts/mcp-servers.js";
import { Label } from "../../../../components/ui/label.js";
import { Switch } from "../../../../components/ui/switch.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { useUpdateMcpServer } from "../api.js";

type Change = { enabled?: boolean; needsApproval?: boolean };

function ToolRow({
  server,
  tool,
  busy,
  onChange,
}: {
  server: AdminMcpServer;
  tool: AdminMcpTool;
  busy: boolean;
  onChange: (c: Change) => void;
}) {
  const base = `mcp-${server.id}-tool-${tool.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return (
    <li className="grid gap-3 py-3 sm:grid-cols-[1fr_auto] sm:items-center">
      <div className="min-w-0">
        <p className="font-mono text-sm font-medium break-all">{tool.name}</p>
        {tool.description ? <p className="text-xs break-words text-muted-foreground">{tool.description}</p> : null}
      </div>
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <div className="flex items-center gap-2">
          <Switch
            id={`${base}-enabled`}
            checked={tool.enabled}
            disabled={busy}
            aria-label={`Enabled: ${tool.name}`}
            onCheckedChange={(enabled) => onChange({ enabled })}
          />
          <Label htmlFor={`${base}-enabled`} aria-hidden="true" className="text-xs font-normal">
            Enabled
          </Label>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`${base}-approval`}
            checked={tool.needsApproval}
            disabled={busy || !tool.enabled}
            aria-label={`Needs approval: ${tool.name}`}
            onCheckedChange={(needsApproval) => onChange({ needsApproval })}
          />
          <Label htmlFor={`${base}-approval`} aria-hidden="true" className="text-xs font-normal">
            Needs approval
          </Label>
        </div>
      </div>
    </li>
  );
}

/** A server's tools as its last refresh listed them, each with the admin's two switches. */
export function McpToolsList({ server }: { server: AdminMcpServer }) {
  const update = useUpdateMcpServer();
  if (server.tools.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {server.toolsRefreshedAt ? "The server lists no tools." : "No tools yet: refresh to fetch the server's tools."}
      </p>
    );
  }
  const change = (tool: AdminMcpTool, c: Change) =>
    update.mutate(
      { id: server.id, body: { tools: [{ name: tool.name, ...c }] } },
      { onError: (error) => notify.error("Could not change the tool", errorMessage(error)) },
    );
  const on = server.tools.filter((t) => t.enabled).length;
  return (
    <section aria-label={`Tools of ${server.name}`}>
      <h3 className="text-sm font-semibold">
        Tools{" "}
        <span className="font-normal text-muted-foreground">
          ({on} of {server.tools.length} on)
        </span>
      </h3>
      <ul className="divide-y">
        {server.tools.map((tool) => (
          <ToolRow key={tool.name} server={server} tool={tool} busy={update.isPending} onChange={(c) => change(tool, c)} />
        ))}
      </ul>
    </section>
  );
}
