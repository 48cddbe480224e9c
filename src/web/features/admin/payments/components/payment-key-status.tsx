import type { AdminPaymentSettings, KeyStatus, StripeKeyName } from "../../../../../shared/contracts/payments.js";
import { Badge } from "../../../../components/ui/badge.js";

export type KeyField = "stripeSecretKey" | "stripePublishableKey" | "stripeWebhookSecret";

/** The three Stripe keys: the environment variable, where the status sits in the read, the body field, and the words. */
export const PAYMENT_KEYS: readonly {
  name: StripeKeyName;
  status: keyof AdminPaymentSettings["keys"];
  field: KeyField;
  label: string;
  placeholder: string;
  purpose: string;
}[] = [
  {
    name: "STRIPE_SECRET_KEY",
    status: "secretKey",
    field: "stripeSecretKey",
    label: "Secret key",
    placeholder: "sk_live_… or sk_test_…",
    purpose: "The server creates payments with it.",
  },
  {
    name: "VITE_STRIPE_PUBLIC_KEY",
    status: "publishableKey",
    field: "stripePublishableKey",
    label: "Publishable key",
    placeholder: "pk_live_… or pk_test_…",
    purpose: "The checkout page shows the card form with it.",
  },
  {
    name: "STRIPE_WEBHOOK_SECRET",
    status: "webhookSecret",
    field: "stripeWebhookSecret",
    label: "Webhook signing secret",
    placeholder: "whsec_…",
    purpose: "Checks that payment notices really come from Stripe.",
  },
];

export const SOURCE_LABEL = { environment: "Environment variable", stored: "Saved on this page" } as const;

function StatusBadge({ present }: { present: boolean }) {
  return present ? (
    <Badge variant="new">Configured</Badge>
  ) : (
    <Badge variant="outline" className="border-destructive/40 bg-destructive/10 text-red-700 dark:bg-destructive/15 dark:text-red-300">
      Missing
    </Badge>
  );
}

function StatusRow({ label, name, purpose, status }: { label: string; name: string; purpose: string; status: KeyStatus }) {
  return (
    <li className="grid gap-2 py-3 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)] sm:gap-4">
      <div className="min-w-0 space-y-0.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{label}</span>
          <StatusBadge present={status.present} />
        </div>
        <p className="text-xs text-muted-foreground">
          <code className="font-mono">{name}</code> · {purpose}
        </p>
      </div>
      <div className="min-w-0 text-sm sm:text-right">
        {status.present && status.source ? (
          <>
            <p>{SOURCE_LABEL[status.source]}</p>
            {status.hint ? <p className="font-mono text-xs break-all text-muted-foreground">{status.hint}</p> : null}
            {status.source === "environment" && status.stored ? (
              <p className="text-xs text-muted-foreground">A key saved on this page is ignored while the variable is set.</p>
            ) : null}
          </>
        ) : (
          <p className="text-muted-foreground">Not set</p>
        )}
      </div>
    </li>
  );
}

/** Configured or Missing for each key, where the key in use comes from, and its hint (never the key). */
export function PaymentKeyStatus({ keys }: { keys: AdminPaymentSettings["keys"] }) {
  return (
    <ul aria-label="Key status" className="divide-y">
      {PAYMENT_KEYS.map((key) => (
        <StatusRow key={key.name} label={key.label} name={key.name} purpose={key.purpose} status={keys[key.status]} />
      ))}
    </ul>
  );
}
