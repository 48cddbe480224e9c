import { paymentsApi } from "../../../../../shared/contracts/payments.js";
import { CopyButton } from "../../../../components/markdown/copy-button.js";

const EVENT = "payment_intent.succeeded";

/** The endpoint to add in Stripe (Developers > Webhooks) and the one event it needs. */
export function PaymentWebhookEndpoint() {
  const url = `${window.location.origin}${paymentsApi.webhook.path}`;
  return (
    <div className="grid gap-2 rounded-lg border bg-muted/40 p-4">
      <p className="text-sm font-medium">Webhook endpoint</p>
      <p className="text-sm text-muted-foreground">
        In Stripe, go to Developers, then Webhooks, and add this endpoint with the event{" "}
        <code className="font-mono text-foreground">{EVENT}</code>. Then paste its signing secret above.
      </p>
      <div className="flex min-w-0 items-center gap-1 rounded-md border bg-background py-1 pr-1 pl-3">
        <code className="min-w-0 flex-1 font-mono text-sm break-all">{url}</code>
        <CopyButton getText={() => url} label="Copy the webhook endpoint" />
      </div>
    </div>
  );
}
