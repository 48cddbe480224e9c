import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ExternalLink, RefreshCw } from "lucide-react";
import { DEFAULT_PAYMENT_SETTINGS } from "../../../../../shared/constants.js";
import { STRIPE_KEY_NAMES, type StripeKeyName } from "../../../../../shared/contracts/payments.js";
import { Button } from "../../../../components/ui/button.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { paths } from "../../../../lib/paths.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { adminPaymentSettingsQuery } from "../api.js";
import { PAYMENT_KEYS } from "../components/payment-key-status.js";
import { PaymentKeysCard } from "../components/payment-keys-card.js";
import { PaymentPriceForm } from "../components/payment-price-form.js";
import { PaymentRequestKeys } from "../components/payment-request-keys.js";
import { PaymentUnfinishedList } from "../components/payment-unfinished-list.js";
import { PlanLimitsCard } from "../components/plan-limits-card.js";
import { PlanStorageCard } from "../components/plan-storage-card.js";
import { planAllowancesQuery } from "../plan-limits-api.js";

function CheckoutLink() {
  return (
    <div className="grid justify-items-start gap-1 sm:justify-items-end">
      <Button variant="outline" asChild>
        <a href={paths.checkout} target="_blank" rel="noopener">
          <ExternalLink aria-hidden="true" />
          Open the checkout page
        </a>
      </Button>
      <span className="text-xs text-muted-foreground">Opens in a new tab</span>
    </div>
  );
}

/** The read failed: the defaults show, and this says so quietly, with a Retry. */
function ReadFailedNotice({ error, retrying, onRetry }: { error: unknown; retrying: boolean; onRetry: () => void }) {
  return (
    <div role="status" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
      <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <span className="min-w-0 flex-1">
        The saved payment settings could not be read ({errorMessage(error)}), so the defaults are shown.
      </span>
      <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
        <RefreshCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
        Retry
      </Button>
    </div>
  );
}

/**
 * /admin/payment-settings: the Early Access price, the plan limits (what each plan may use), the Stripe keys, and
 * the paid checkouts that need an admin.
 */
export function PaymentSettingsPage() {
  usePageTitle("Payment Settings", "Admin");
  const settings = useQuery(adminPaymentSettingsQuery);
  const limits = useQuery(planAllowancesQuery);
  const data = settings.data;
  const readFailed = !data && settings.isError;
  // On a failed read the key status is unknown: every key is reported missing (docs/product.md, Admin back office).
  const missing: StripeKeyName[] = data
    ? PAYMENT_KEYS.filter((key) => !data.keys[key.status].present).map((key) => key.name)
    : [...STRIPE_KEY_NAMES];
  const values = data ? { earlyAccessPrice: data.earlyAccessPrice, currency: data.currency } : { ...DEFAULT_PAYMENT_SETTINGS };

  const checkAgain = async () => {
    const result = await settings.refetch();
    if (result.isError) notify.error("Could not check the keys", errorMessage(result.error, "An unexpected error occurred."));
  };

  return (
    <AdminShell>
      <div className="grid max-w-4xl gap-6">
        <div className="grid gap-3">
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div className="space-y-1">
              <h1 className="text-3xl font-bold tracking-tight">Payment Settings</h1>
              <p className="text-muted-foreground">The Early Access price, plan limits, the Stripe keys, and payments that need you.</p>
            </div>
            <CheckoutLink />
          </div>
          {readFailed ? (
            <ReadFailedNotice error={settings.error} retrying={settings.isFetching} onRetry={() => void settings.refetch()} />
          ) : null}
        </div>
        {settings.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading payment settings..." />
            <span aria-hidden="true">Loading payment settings...</span>
          </div>
        ) : (
          <>
            <PaymentPriceForm values={values} settings={data} exists={data ? data.id !== null : null} />
            <PlanLimitsCard saved={limits.data} loading={limits.isPending} error={limits.isError ? limits.error : null} />
            <PlanStorageCard />
            <PaymentKeysCard settings={data} checking={settings.isFetching} onCheck={() => void checkAgain()} />
            <PaymentRequestKeys missing={missing} statusKnown={!!data} />
            <PaymentUnfinishedList />
          </>
        )}
      </div>
    </AdminShell>
  );
}
