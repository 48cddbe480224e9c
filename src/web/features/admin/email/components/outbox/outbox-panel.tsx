import { useInfiniteQuery } from "@tanstack/react-query";
import { Eye, Inbox, RefreshCw, Send } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import {
  OUTBOX_STATUS_LABELS,
  OUTBOX_STATUSES,
  type OutboxEmail,
  type OutboxStatus,
  RESENDABLE_STATUSES,
} from "../../../../../../shared/contracts/email-outbox.js";
import { emailPreviewPath } from "../../../../../../shared/email-preview-path.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../../components/ui/card.js";
import { LoadFailed } from "../../../../../components/ui/load-failed.js";
import { LoadMoreFooter } from "../../../../../components/ui/load-more.js";
import { ButtonSpinner, Spinner } from "../../../../../components/ui/spinner.js";
import { cn } from "../../../../../lib/cn.js";
import { outboxQuery, useResendEmail } from "../../outbox-api.js";
import { OutboxStatusBadge } from "./outbox-status-badge.js";

const th = "px-3 py-2.5 text-left text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase";
/** Shown before a value when the rows are cards (below 1024 px), where the header row is hidden. */
const cardLabel = "mr-1.5 text-muted-foreground lg:hidden";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function OutboxRow({ email }: { email: OutboxEmail }) {
  const resend = useResendEmail();
  const resendable = RESENDABLE_STATUSES.includes(email.status);
  return (
    <tr className="grid gap-1.5 border-b px-4 py-3 last:border-b-0 lg:table-row lg:p-0" data-testid="outbox-row">
      <td className="min-w-0 lg:py-3 lg:pr-3 lg:pl-4 lg:align-top">
        <p className="font-medium [overflow-wrap:anywhere]">{email.to}</p>
        <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">{email.subject}</p>
      </td>
      <td className="lg:px-3 lg:py-3 lg:align-top">
        <span className={cardLabel}>Template:</span>
        {email.templateSlug ? <code className="text-xs">{email.templateSlug}</code> : <span className="text-muted-foreground">None</span>}
      </td>
      <td className="lg:px-3 lg:py-3 lg:align-top">
        <OutboxStatusBadge status={email.status} />
      </td>
      <td className="lg:px-3 lg:py-3 lg:text-center lg:align-top">
        <span className={cardLabel}>Attempts:</span>
        {email.attempts}
      </td>
      <td className="min-w-0 lg:max-w-64 lg:px-3 lg:py-3 lg:align-top">
        {email.lastError ? (
          <p className="text-xs text-destructive [overflow-wrap:anywhere]">{email.lastError}</p>
        ) : (
          <span className="text-xs text-muted-foreground max-lg:hidden">—</span>
        )}
      </td>
      <td className="text-xs whitespace-nowrap text-muted-foreground lg:px-3 lg:py-3 lg:align-top">
        <span className={cardLabel}>Created:</span>
        {when(email.createdAt)}
      </td>
      <td className="lg:py-2 lg:pr-4 lg:pl-3 lg:align-top">
        <div className="flex flex-wrap gap-2 pt-1 lg:justify-end lg:pt-0">
          <Button asChild variant="outline" size="sm">
            <Link href={emailPreviewPath(email.id)} aria-label={`Preview the email to ${email.to}`}>
              <Eye aria-hidden="true" />
              Preview
            </Link>
          </Button>
          {resendable ? (
            <Button
              variant="outline"
              size="sm"
              disabled={resend.isPending}
              onClick={() => resend.mutate(email.id)}
              aria-label={`Resend the email to ${email.to}`}
            >
              {resend.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
              {resend.isPending ? "Queueing..." : "Resend"}
            </Button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

function StatusFilter({ value, onChange }: { value: OutboxStatus | undefined; onChange: (status: OutboxStatus | undefined) => void }) {
  const options: { label: string; status: OutboxStatus | undefined }[] = [
    { label: "All", status: undefined },
    ...OUTBOX_STATUSES.map((status) => ({ label: OUTBOX_STATUS_LABELS[status], status })),
  ];
  return (
    <fieldset className="flex flex-wrap gap-1.5">
      <legend className="sr-only">Show emails with status</legend>
      {options.map((option) => (
        <Button
          key={option.label}
          type="button"
          size="sm"
          variant={value === option.status ? "default" : "outline"}
          aria-pressed={value === option.status}
          onClick={() => onChange(option.status)}
        >
          {option.label}
        </Button>
      ))}
    </fieldset>
  );
}

/**
 * The outbox (issue 11): every email the platform stored, newest first, with its delivery state, a preview and
 * Resend. Self-contained: the Email Settings page renders it in its Outbox tab.
 */
export function OutboxPanel() {
  const [status, setStatus] = useState<OutboxStatus | undefined>(undefined);
  const list = useInfiniteQuery(outboxQuery(status));
  const emails = list.data?.pages.flatMap((page) => page.items) ?? [];
  const refreshing = list.isFetching && !list.isFetchingNextPage && !list.isPending;

  return (
    <section className="grid gap-4" aria-labelledby="outbox-heading">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h2 id="outbox-heading" className="text-xl font-semibold tracking-tight">
            Outbox
          </h2>
          <p className="text-sm text-muted-foreground">
            Every email is stored here first, then sent with retries. Without an SMTP server it stays in the test inbox, never sent.
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
          <RefreshCw aria-hidden="true" className={refreshing ? "animate-spin" : undefined} />
          Refresh
        </Button>
      </div>
      <StatusFilter value={status} onChange={setStatus} />
      {list.isPending ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner label="Loading emails..." />
          <span aria-hidden="true">Loading emails...</span>
        </div>
      ) : list.isError && emails.length === 0 ? (
        <LoadFailed
          title="Failed to load the outbox. Please try again."
          error={list.error}
          retrying={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      ) : emails.length === 0 ? (
        <Card>
          <CardContent className="grid justify-items-center gap-3 py-12 text-center">
            <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="text-muted-foreground">{status ? `No emails with status ${OUTBOX_STATUS_LABELS[status]}.` : "No emails yet."}</p>
          </CardContent>
        </Card>
      ) : (
        <div className={cn("grid gap-4 transition-opacity", refreshing && "opacity-60")}>
          <div className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm">
            <table className="w-full text-sm">
              <thead className="border-b bg-muted/40 max-lg:sr-only">
                <tr>
                  <th scope="col" className={`${th} pl-4`}>
                    Recipient
                  </th>
                  <th scope="col" className={th}>
                    Template
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={`${th} text-center`}>
                    Attempts
                  </th>
                  <th scope="col" className={th}>
                    Last error
                  </th>
                  <th scope="col" className={th}>
                    Created
                  </th>
                  <th scope="col" className={`${th} pr-4 text-right`}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="grid lg:table-row-group">
                {emails.map((email) => (
                  <OutboxRow key={email.id} email={email} />
                ))}
              </tbody>
            </table>
          </div>
          <LoadMoreFooter list={list} shown={emails.length} noun={{ one: "email", many: "emails" }} />
        </div>
      )}
    </section>
  );
}
