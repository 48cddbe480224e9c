import { Trash2 } from "lucide-react";
import type { AdminApiToken as AdminToken } from "../../../../../shared/contracts/api-tokens.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { useConfirmedRevoke } from "../../../../components/ui/use-confirmed-revoke.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { useAdminRevokeToken, useAdminTokens } from "../api.js";

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });

/** /admin/api-tokens (issue 35): every live personal API token (owner, name, scopes, expiry, last use), with revoke. */
export function ApiTokensPage() {
  usePageTitle("API Tokens", "Admin");
  const tokens = useAdminTokens();
  const revoke = useConfirmedRevoke({
    mutation: useAdminRevokeToken(),
    keyOf: (token: AdminToken) => token.id,
    title: "Revoke this token?",
    message: (token) => `${token.username}'s token "${token.name}" will stop working at once. This cannot be undone.`,
    done: (token) => ["Token revoked", `${token.username}'s token "${token.name}" stopped working.`],
    failed: "Could not revoke the token",
  });
  return (
    <AdminShell>
      <div className="grid max-w-5xl gap-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">API Tokens</h1>
          <p className="text-muted-foreground">
            Every live personal API token, newest first. Which plans may make them is set in Platform Settings.
          </p>
        </div>
        {tokens.isPending ? (
          <Spinner label="Loading API tokens..." />
        ) : tokens.isError ? (
          <LoadFailed
            title="Failed to load the API tokens."
            error={tokens.error}
            advice="Check your connection, then try again."
            retrying={tokens.isFetching}
            onRetry={() => void tokens.refetch()}
          />
        ) : tokens.data.length === 0 ? (
          <Card>
            <CardContent className="py-12 text-center text-muted-foreground">No API tokens yet.</CardContent>
          </Card>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm">
              <thead className="bg-muted/60 text-left">
                <tr>
                  {["Owner", "Name", "Scopes", "Expires", "Last used"].map((label) => (
                    <th key={label} scope="col" className="px-3 py-2 font-medium">
                      {label}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.map((token) => (
                  <tr key={token.id} className="border-t" data-token-id={token.id}>
                    <td className="px-3 py-2">{token.username}</td>
                    <td className="max-w-60 truncate px-3 py-2" title={token.name}>
                      {token.name} <span className="font-mono text-xs text-muted-foreground">…{token.hint}</span>
                    </td>
                    <td className="px-3 py-2">{token.scopes.join(", ")}</td>
                    <td className="whitespace-nowrap px-3 py-2">{day(token.expiresAt)}</td>
                    <td className="whitespace-nowrap px-3 py-2">{token.lastUsedAt ? day(token.lastUsedAt) : "Never"}</td>
                    <td className="px-3 py-2 text-right">
                      <Button
                        variant="outline"
                        size="sm"
                        className="text-destructive"
                        onClick={() => revoke.ask(token)}
                        aria-label={`Revoke ${token.username}'s token ${token.name}`}
                      >
                        <Trash2 aria-hidden="true" />
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {revoke.dialog}
      </div>
    </AdminShell>
  );
}
