import { useQuery } from "@tanstack/react-query";
import { CheckCheck } from "lucide-react";
import { useState } from "react";
import type { UnfinishedPayment } from "../../../../../shared/contracts/payments.js";
import { formatPrice } from "../../../../../shared/format-price.js";
import { maskStripeId } from "../../../../../shared/money.js";
import { Badge } from "../../../../components/ui/badge.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage, isApiError } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { unfinishedPaymentsQuery, useResolveUnfinishedPayment } from "../api.js";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
const amountOf = (payment: UnfinishedPayment) => `${formatPrice(payment.amount, payment.currency)} ${payment.currency}`;

function PaymentItem({ payment, onResolve }: { payment: UnfinishedPayment; onResolve: () => void }) {
  return (
    <li aria-label={payment.username} className="grid gap-3 py-4 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-6">
      <div className="grid min-w-0 gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{payment.username}</span>
          <Badge variant="secondary">{payment.kind === "register" ? "Registration" : "Upgrade"}</Badge>
          <span className="text-sm font-medium">{amountOf(payment)}</span>
        </div>
        <p className="text-sm break-all text-muted-foreground">{payment.email ?? "No email address"}</p>
        <p className="text-sm">{payment.problem}</p>
        <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          <span>
            Stripe payment{" "}
            {payment.paymentIntentId ? <code className="font-mono">{maskStripeId(payment.paymentIntentId)}</code> : "not recorded"}
          </span>
          <time dateTime={payment.updatedAt}>{when(payment.updatedAt)}</time>
        </p>
      </div>
      <Button variant="outline" size="sm" className="self-start" onClick={onResolve}>
        <CheckCheck aria-hidden="true" />
        Mark resolved
      </Button>
    </li>
  );
}

/** Paid checkouts that could not finish: each stays until an admin settles it in Stripe and marks it resolved. */
export function PaymentUnfinishedList() {
  const payments = useQuery(unfinishedPaymentsQuery);
  const resolve = useResolveUnfinishedPayment();
  const [resolving, setResolving] = useState<UnfinishedPayment | null>(null);
  const list = payments.data;

  const confirm = () => {
    if (!resolving) return;
    const payment = resolving;
    resolve.mutate(payment.id, {
      onSuccess: () => {
        setResolving(null);
        notify.success("Payment marked resolved", `${payment.username}'s payment left the list.`);
      },
      onError: (error) => {
        setResolving(null);
        // Already resolved by someone else: the list is read again.
        if (isApiError(error) && error.status === 404) void payments.refetch();
        notify.error("Failed to mark the payment resolved", errorMessage(error, "An unexpected error occurred."));
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Payments that need attention</CardTitle>
        <CardDescription>
          Paid checkouts that could not finish. Settle each one in Stripe (refund it, or create the account by hand), then mark it resolved.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {payments.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading payments..." />
            <span aria-hidden="true">Loading payments...</span>
          </div>
        ) : !list ? (
          <LoadFailed
            className="shadow-none"
            title="Failed to load the payments that need attention."
            error={payments.error}
            advice="Check your connection, then try again."
            retrying={payments.isFetching}
            onRetry={() => void payments.refetch()}
          />
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payments need attention.</p>
        ) : (
          <ul aria-label="Payments that need attention" className="divide-y">
            {list.map((payment) => (
              <PaymentItem key={payment.id} payment={payment} onResolve={() => setResolving(payment)} />
            ))}
          </ul>
        )}
      </CardContent>
      {resolving ? (
        <ConfirmDialog
          title="Mark this payment resolved?"
          message={`Do this once ${resolving.username}'s payment of ${amountOf(resolving)} is settled in Stripe (refunded, or the account created by hand). It then leaves this list.`}
          confirmLabel="Mark resolved"
          pendingLabel="Marking resolved..."
          destructive={false}
          pending={resolve.isPending}
          onConfirm={confirm}
          onClose={() => setResolving(null)}
        />
      ) : null}
    </Card>
  );
}
