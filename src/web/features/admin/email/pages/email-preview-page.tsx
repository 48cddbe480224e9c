import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, MailQuestion, Send } from "lucide-react";
import { Link, useParams } from "wouter";
import { MAX_ID } from "../../../../../shared/contracts/common.js";
import { RESENDABLE_STATUSES } from "../../../../../shared/contracts/email-outbox.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { ButtonSpinner, Spinner } from "../../../../components/ui/spinner.js";
import { isApiError } from "../../../../lib/api-client.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { paths } from "../../../../lib/paths.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { OutboxStatusBadge } from "../components/outbox/outbox-status-badge.js";
import { outboxEmailQuery, useResendEmail } from "../outbox-api.js";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function BackLink() {
  return (
    <Button asChild variant="ghost" size="sm" className="w-fit">
      <Link href={paths.adminEmailSettings}>
        <ArrowLeft aria-hidden="true" />
        Email Settings
      </Link>
    </Button>
  );
}

function NotFound() {
  return (
    <Card>
      <CardContent className="grid justify-items-center gap-3 py-12 text-center">
        <MailQuestion className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">Email not found</p>
        <p className="text-sm text-muted-foreground">
          It may have been removed. Open the outbox on the Email Settings page to see every stored email.
        </p>
      </CardContent>
    </Card>
  );
}

function Preview({ id }: { id: number }) {
  const email = useQuery(outboxEmailQuery(id));
  const resend = useResendEmail();
  if (email.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner label="Loading email..." />
        <span aria-hidden="true">Loading email...</span>
      </div>
    );
  }
  if (email.isError) {
    if (isApiError(email.error) && email.error.status === 404) return <NotFound />;
    return (
      <LoadFailed
        title="Failed to load the email. Please try again."
        error={email.error}
        retrying={email.isFetching}
        onRetry={() => void email.refetch()}
      />
    );
  }
  const data = email.data;
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">{data.subject || "(no subject)"}</h1>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">To</dt>
            <dd className="[overflow-wrap:anywhere]" data-testid="preview-to">
              {data.to}
            </dd>
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <OutboxStatusBadge status={data.status} />
            </dd>
            <dt className="text-muted-foreground">Template</dt>
            <dd>{data.templateSlug ? <code className="text-xs">{data.templateSlug}</code> : "None"}</dd>
            <dt className="text-muted-foreground">Created</dt>
            <dd>{when(data.createdAt)}</dd>
            {data.sentAt ? (
              <>
                <dt className="text-muted-foreground">Sent</dt>
                <dd>{when(data.sentAt)}</dd>
              </>
            ) : null}
            {data.lastError ? (
              <>
                <dt className="text-muted-foreground">Last error</dt>
                <dd className="text-destructive [overflow-wrap:anywhere]">
                  {data.lastError} ({data.attempts} {data.attempts === 1 ? "attempt" : "attempts"})
                </dd>
              </>
            ) : null}
          </dl>
          {data.status === "test" ? (
            <p className="text-sm text-muted-foreground">
              No SMTP server was configured, so this email was kept in the test inbox and never sent.
            </p>
          ) : null}
        </div>
        {RESENDABLE_STATUSES.includes(data.status) ? (
          <Button variant="outline" disabled={resend.isPending} onClick={() => resend.mutate(data.id)}>
            {resend.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
            {resend.isPending ? "Queueing..." : "Resend"}
          </Button>
        ) : null}
      </div>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0 gap-0 overflow-hidden py-0">
          <CardHeader className="border-b py-3">
            <CardTitle className="text-sm">HTML</CardTitle>
          </CardHeader>
          {/* sandbox="": no scripts, no forms, no same-origin; a white page as a mail client shows it. */}
          <iframe
            title="HTML part of the email"
            sandbox=""
            srcDoc={data.html}
            referrerPolicy="no-referrer"
            className="h-[32rem] w-full bg-white"
          />
        </Card>
        <Card className="min-w-0 gap-0 overflow-hidden py-0">
          <CardHeader className="border-b py-3">
            <CardTitle className="text-sm">Plain text</CardTitle>
          </CardHeader>
          <pre
            className="h-[32rem] overflow-auto p-4 font-mono text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
            data-testid="preview-text"
          >
            {data.text}
          </pre>
        </Card>
      </div>
    </div>
  );
}

/** /admin/email-preview/{id}: one stored email (a test send's previewUrl), its HTML sandboxed beside its text. */
export function EmailPreviewPage() {
  usePageTitle("Email Preview", "Admin");
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : 0;
  return (
    <AdminShell>
      <div className="grid gap-4">
        <BackLink />
        {id > 0 && id <= MAX_ID ? <Preview key={id} id={id} /> : <NotFound />}
      </div>
    </AdminShell>
  );
}
