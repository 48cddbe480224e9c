import { CircleAlert, CircleCheck, Pencil, RefreshCw, Server, Trash2 } from "lucide-react";
import { useState } from "react";
import { type AdminMcpServer, MCP_TRANSPORT_LABELS } from "../../../../../shared/contracts/mcp-servers.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { Badge } from "../../../../components/ui/badge.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { Switch } from "../../../../components/ui/switch.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { cn } from "../../../../lib/cn.js";
import { notify } from "../../../../lib/notify.js";
import { useDeleteMcpServer, useRefreshMcpServer, useUpdateMcpServer } from "../api.js";
import { McpServerDialog } from "./mcp-server-dialog.js";
import { McpToolsList } from "./mcp-tools-list.js";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function statusBadge(server: AdminMcpServer): { label: string; variant: "new" | "beta" | "outline"; className?: string } {
  if (!server.enabled) return { label: "Off", variant: "outline" };
  if (server.lastOk === false)
    return {
      label: "Failed",
      variant: "outline",
      className: "border-destructive/40 bg-destructive/10 text-red-700 dark:bg-destructive/15 dark:text-red-300",
    };
  if (server.lastOk === true) return { label: "Connected", variant: "new" };
  return { label: "Not tried yet", variant: "beta" };
}

/** The last refresh or connection, in the words the server kept. Nothing before a first try. */
function LastResult({ server }: { server: AdminMcpServer }) {
  if (server.lastOk === null || !server.lastMessage) return null;
  const Icon = server.lastOk ? CircleCheck : CircleAlert;
  return (
    <div
      role="status"
      data-testid="mcp-last-result"
      className={cn(
        "flex gap-2 rounded-lg border px-3 py-2 text-sm",
        server.lastOk
          ? "border-emerald-500/40 bg-emerald-500/10 text-emerald-900 dark:text-emerald-200"
          : "border-destructive/40 bg-destructive/10 text-red-700 dark:bg-destructive/15 dark:text-red-300",
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 break-words">
        <span className="font-medium">{server.lastOk ? "Last refresh worked" : "Last refresh failed"}</span>
        {server.lastOk && server.toolsRefreshedAt ? (
          <>
            {" "}
            <time dateTime={server.toolsRefreshedAt} className="opacity-80">
              {when(server.toolsRefreshedAt)}
            </time>
          </>
        ) : null}
        <span className="block">{server.lastMessage}</span>
      </p>
    </div>
  );
}

/** One MCP server: what it is, whether it answers, its tools with their switches, and its actions. */
export function McpServerCard({ server }: { server: AdminMcpServer }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const refresh = useRefreshMcpServer();
  const update = useUpdateMcpServer();
  const remove = useDeleteMcpServer();
  const titleId = `mcp-server-${server.id}-title`;
  const badge = statusBadge(server);
  const plans = server.plans.length ? server.plans.map((p) => PLAN_LABELS[p]).join(", ") : "Admins only";

  const onRefresh = () =>
    refresh.mutate(server.id, {
      onSuccess: (saved) => notify.success("Tools refreshed", saved.lastMessage ?? undefined),
      onError: (error) => notify.error("Refresh failed", errorMessage(error)),
    });
  const onDelete = () =>
    remove.mutate(server.id, {
      onSuccess: () => {
        setConfirming(false);
        notify.success("MCP server deleted");
      },
      onError: (error) => notify.error("Could not delete the server", errorMessage(error)),
    });

  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row flex-wrap items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Server className="size-5" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1 max-sm:basis-[calc(100%-3.25rem)]">
          <CardTitle id={titleId} className="leading-snug break-words">
            {server.name}
          </CardTitle>
          <CardDescription className="break-all">
            <span className="font-mono">{server.url}</span>
          </CardDescription>
          <p className="text-xs text-muted-foreground">
            {MCP_TRANSPORT_LABELS[server.transport]} · Plans: {plans}
            {server.headerNames.length ? ` · Headers: ${server.headerNames.join(", ")}` : ""}
          </p>
        </div>
        <Badge
          variant={badge.variant}
          className={cn("shrink-0 px-2 py-1 text-xs tracking-normal normal-case max-sm:ml-13", badge.className)}
        >
          {badge.label}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-4">
        <LastResult server={server} />
        <McpToolsList server={server} />
        <div className="flex flex-wrap items-center gap-2 border-t pt-4">
          <Button variant="outline" size="sm" onClick={onRefresh} disabled={refresh.isPending}>
            {refresh.isPending ? <ButtonSpinner /> : <RefreshCw aria-hidden="true" />}
            {refresh.isPending ? "Refreshing..." : "Refresh tools"}
          </Button>
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant="outline" size="sm" className="text-destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
          <div className="ml-auto flex items-center gap-2">
            <Switch
              id={`mcp-server-${server.id}-enabled`}
              checked={server.enabled}
              disabled={update.isPending}
              aria-label={`Server on: ${server.name}`}
              onCheckedChange={(enabled) =>
                update.mutate(
                  { id: server.id, body: { enabled } },
                  { onError: (error) => notify.error("Could not change the server", errorMessage(error)) },
                )
              }
            />
            <label htmlFor={`mcp-server-${server.id}-enabled`} aria-hidden="true" className="text-sm">
              On
            </label>
          </div>
        </div>
      </CardContent>
      {editing ? <McpServerDialog server={server} onClose={() => setEditing(false)} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${server.name}?`}
          message="Its tools disappear from every chat at once. This cannot be undone."
          pending={remove.isPending}
          onConfirm={onDelete}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Card>
  );
}
