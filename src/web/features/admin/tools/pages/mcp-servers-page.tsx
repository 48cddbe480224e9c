import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { mcpServersQuery } from "../api.js";
import { McpServerCard } from "../components/mcp-server-card.js";
import { McpServerDialog } from "../components/mcp-server-dialog.js";

/** /admin/mcp-servers: the MCP servers whose tools the chat may call (issue 34), a card each, and the add dialog. */
export function McpServersPage() {
  usePageTitle("MCP Servers", "Admin");
  const servers = useQuery(mcpServersQuery);
  const [adding, setAdding] = useState(false);

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">MCP Servers</h1>
            <p className="text-muted-foreground">
              Tools the chat can call, from servers you trust. Only the registered address is ever contacted, and redirects are not
              followed.
            </p>
          </div>
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add Server
          </Button>
        </div>
        {servers.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading MCP servers..." />
            <span aria-hidden="true">Loading MCP servers...</span>
          </div>
        ) : servers.isError ? (
          <LoadFailed
            title="Failed to load MCP servers."
            error={servers.error}
            retrying={servers.isFetching}
            onRetry={() => void servers.refetch()}
          />
        ) : servers.data.length === 0 ? (
          <Card>
            <CardContent className="pt-6 text-center text-sm text-muted-foreground">
              No MCP servers yet. Add one to give the chat tools.
            </CardContent>
          </Card>
        ) : (
          <div className="grid items-start gap-4 xl:grid-cols-2">
            {servers.data.map((server) => (
              <McpServerCard key={server.id} server={server} />
            ))}
          </div>
        )}
      </div>
      {adding ? <McpServerDialog onClose={() => setAdding(false)} /> : null}
    </AdminShell>
  );
}
