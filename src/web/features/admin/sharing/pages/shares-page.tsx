import { useInfiniteQuery } from "@tanstack/react-query";
import { Link2Off } from "lucide-react";
import type { AdminShare } from "../../../../../shared/contracts/sharing.js";
import { Badge } from "../../../../components/ui/badge.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { LoadMoreFooter } from "../../../../components/ui/load-more.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { useConfirmedRevoke } from "../../../../components/ui/use-confirmed-revoke.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { adminSharesQuery, useAdminRevokeShare } from "../api.js";

const STATE_LABELS: Record<AdminShare["state"], string> = { active: "Active", revoked: "Revoked", ownerDisabled: "Owner disabled" };
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** /admin/shares (issue 33): every chat share link (owner, chat title, created, state), newest first, with revoke. */
export function SharesPage() {
  usePageTitle("Shared Links", "Admin");
  const list = useInfiniteQuery(adminSharesQuery);
  const revoke = useConfirmedRevoke({
    mutation: useAdminRevokeShare(),
    keyOf: (share: AdminShare) => share.token,
    title: "Revoke this link?",
    message: (share) => `"${share.title}" by ${share.owner.username} will no longer open for anyone. This cannot be undone.`,
    done: (share) => ["Link revoked", `"${share.title}" no longer opens.`],
    failed: "Failed to revoke the link",
  });
  const shares = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <AdminShell>
      <div className="grid max-w-5xl gap-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Shared Links</h1>
          <p className="text-muted-foreground">
            Every chat share link, newest first. A revoked link, or a disabled owner's, answers "not found".
          </p>
        </div>
        {list.isPending ? (
          <Spinner label="Loading share links..." />
        ) : list.isError && shares.length === 0 ? (
          <LoadFailed
            title="Failed to load the share links."
            error={list.error}
            advice="Check your connection, then try again."
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        ) : shares.length === 0 ? (
          <Card>
            <CardContent className="py-12 text-center text-muted-foreground">No share links yet.</CardContent>
          </Card>
        ) : (
          <div className="grid gap-4">
            <div className="overflow-x-auto rounded-lg border">
              <table className="w-full text-sm">
                <thead className="bg-muted/60 text-left">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Chat
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Owner
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Created
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      State
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shares.map((share) => (
                    <tr key={share.token} className="border-t" data-share-token={share.token}>
                      <td className="max-w-72 truncate px-3 py-2" title={share.title}>
                        {share.state === "active" ? (
                          <a
                            href={share.url}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="font-medium text-primary underline-offset-2 hover:underline"
                          >
                            {share.title}
                          </a>
                        ) : (
                          share.title
                        )}
                      </td>
                      <td className="px-3 py-2">{share.owner.username}</td>
                      <td className="whitespace-nowrap px-3 py-2">{when(share.createdAt)}</td>
                      <td className="px-3 py-2">
                        <Badge variant={share.state === "active" ? "default" : "secondary"}>{STATE_LABELS[share.state]}</Badge>
                      </td>
                      <td className="px-3 py-2 text-right">
                        {share.state === "revoked" ? null : (
                          <Button variant="outline" size="sm" className="text-destructive" onClick={() => revoke.ask(share)}>
                            <Link2Off aria-hidden="true" />
                            Revoke
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <LoadMoreFooter list={list} shown={shares.length} noun={{ one: "link", many: "links" }} />
          </div>
        )}
      </div>
      {revoke.dialog}
    </AdminShell>
  );
}
