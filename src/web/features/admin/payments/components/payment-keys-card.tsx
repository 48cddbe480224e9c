import { RefreshCw } from "lucide-react";
import type { AdminPaymentSettings } from "../../../../../shared/contracts/payments.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { PaymentKeyForm } from "./payment-key-form.js";
import { PaymentKeyStatus } from "./payment-key-status.js";
import { PaymentWebhookEndpoint } from "./payment-webhook-endpoint.js";

/**
 * The Stripe keys: their status (read again with Check again), the fields to save or remove them, and the
 * webhook endpoint to give Stripe. Without a read of the settings the status is unknown, and saving is off
 * (a save would send the default price along).
 */
export function PaymentKeysCard({
  settings,
  checking,
  onCheck,
}: {
  settings: AdminPaymentSettings | undefined;
  checking: boolean;
  onCheck: () => void;
}) {
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>Stripe keys</CardTitle>
          <CardDescription>
            Card payments need the secret key and the publishable key; confirming a payment needs the webhook signing secret.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" className="self-start" disabled={checking} onClick={onCheck}>
          <RefreshCw aria-hidden="true" className={checking ? "animate-spin" : undefined} />
          {checking ? "Checking..." : "Check again"}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-6">
        {settings ? (
          <PaymentKeyStatus keys={settings.keys} />
        ) : (
          <p className="text-sm text-muted-foreground">The key status could not be read. Use Check again to read it.</p>
        )}
        <div className="grid gap-4 border-t pt-5">
          <div className="grid gap-1">
            <p className="text-sm font-medium">Enter keys</p>
            <p className="text-sm text-muted-foreground">
              Environment variables (STRIPE_SECRET_KEY, VITE_STRIPE_PUBLIC_KEY, STRIPE_WEBHOOK_SECRET) win over keys saved here. Saved keys
              are stored encrypted and never shown again: only their start and last 4 characters appear above.
            </p>
          </div>
          {settings ? (
            <PaymentKeyForm settings={settings} />
          ) : (
            <p className="text-sm text-muted-foreground">Keys can be entered once the settings have been read.</p>
          )}
        </div>
        <PaymentWebhookEndpoint />
      </CardContent>
    </Card>
  );
}
