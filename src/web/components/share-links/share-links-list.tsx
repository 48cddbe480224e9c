import { Link2Off, RefreshCw } from "lucide-react";
import type { ShareLink } from "../../../shared/contracts/sharing.js";
import { type ShareLinksResult, useRevokeShareLink, useUpdateShareLink } from "../../domain/share-links.js";
import { errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { CopyButton } from "../markdown/copy-button.js";
import { Button } from "../ui/button.js";
import { Input } from "../ui/input.js";
import { LoadFailed } from "../ui/load-failed.js";
import { LoadMoreFooter } from "../ui/load-more.js";
import { ButtonSpinner, Spinner } from "../ui/spinner.js";
import { useConfirmedRevoke } from "../ui/use-confirmed-revoke.js";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function ShareLinkRow({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  const update = useUpdateShareLink();
  const refresh = () =>
    update.mutate(
      { token: link.token },
      {
        onSuccess: () => notify.success("Link updated", "It now shows the chat as it is now."),
        onError: (error) => notify.error("Failed to update the link", errorMessage(error)),
      },
    );
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-share-token={link.token}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="min-w-0 truncate font-medium">{link.title}</p>
        <p className="text-xs text-muted-foreground">
          {link.messageCount} {link.messageCount === 1 ? "message" : "messages"} · updated {when(link.updatedAt)}
          {link.showAuthor ? " · shows your name" : ""}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          readOnly
          value={link.url}
          aria-label={`Link to ${link.title}`}
          className="min-w-0 flex-1 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton showText getText={() => link.url} label="Copy link" className="h-9" />
        <Button variant="outline" size="sm" onClick={refresh} disabled={update.isPending}>
          {update.isPending ? <ButtonSpinner /> : <RefreshCw aria-hidden="true" />}
          Update
        </Button>
        <Button variant="outline" size="sm" className="text-destructive" onClick={onRevoke}>
          <Link2Off aria-hidden="true" />
          Revoke
        </Button>
      </div>
    </li>
  );
}

/**
 * The user's share links (all of them, or one chat's): copy, update (a new snapshot of the branch shown now), revoke
 * (asked first: the link stops working at once). `empty`: what an empty list says.
 */
export function ShareLinksList({ list, empty }: { list: ShareLinksResult; empty: string }) {
  const revoke = useConfirmedRevoke({
    mutation: useRevokeShareLink(),
    keyOf: (link: ShareLink) => link.token,
    title: "Revoke this link?",
    message: (link) => `"${link.title}" will no longer open for anyone who has the link. This cannot be undone.`,
    done: () => ["Link revoked", "Anyone opening it now gets a not-found page."],
    failed: "Failed to revoke the link",
  });
  const links = list.data?.pages.flatMap((page) => page.items) ?? [];
  if (list.isPending) return <Spinner label="Loading your links..." />;
  if (list.isError && links.length === 0)
    return (
      <LoadFailed
        title="Failed to load your share links."
        error={list.error}
        advice="Check your connection, then try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  if (links.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <div className="grid gap-3">
      <ul className="grid gap-3" aria-label="Share links">
        {links.map((link) => (
          <ShareLinkRow key={link.token} link={link} onRevoke={() => revoke.ask(link)} />
        ))}
      </ul>
      {list.hasNextPage ? <LoadMoreFooter list={list} shown={links.length} noun={{ one: "link", many: "links" }} /> : null}
      {revoke.dialog}
    </div>
  );
}
