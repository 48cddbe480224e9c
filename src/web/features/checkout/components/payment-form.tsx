import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Appearance, Stripe, StripeElementsOptions, StripePaymentElementOptions } from "@stripe/stripe-js";
import { AlertCircle, Lock } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { notify } from "../../../lib/notify.js";
import { useTheme } from "../../../lib/theme.js";
import { CHECKOUT_TEXTS } from "../checkout-texts.js";

/** Stripe's own themes, tinted with the product's primary colour ('night' in dark mode, 'stripe' in light). */
function appearanceFor(theme: "light" | "dark"): Appearance {
  return theme === "dark"
    ? { theme: "night", variables: { colorPrimary: "#8b5cf6", borderRadius: "6px" } }
    : { theme: "stripe", variables: { colorPrimary: "#6d28d9", borderRadius: "6px" } };
}

const elementOptions: StripePaymentElementOptions = { layout: "tabs" };

type Props = {
  stripe: Stripe;
  clientSecret: string;
  /** "Pay $297". */
  payLabel: string;
  returnUrl: string;
  onPaid: (paymentIntentId: string, processing: boolean) => void;
  /** Stripe refused the payment (the checkout may have been voided meanwhile: the page asks the server). */
  onFailed?: () => void;
};

/** Stripe's Payment Element for this checkout's intent, and Pay (Processing... while Stripe confirms). */
export function PaymentForm({ stripe, clientSecret, ...rest }: Props) {
  const { resolvedTheme } = useTheme();
  const options = useMemo<StripeElementsOptions>(
    () => ({ clientSecret, appearance: appearanceFor(resolvedTheme) }),
    [clientSecret, resolvedTheme],
  );
  return (
    <Elements stripe={stripe} options={options}>
      <PayForm {...rest} />
    </Elements>
  );
}

function PayForm({ payLabel, returnUrl, onPaid, onFailed }: Omit<Props, "stripe" | "clientSecret">) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // Why the last try was refused: under the card field until the card changes or the next try.
  const [declined, setDeclined] = useState<string | null>(null);
  const declinedId = useId();

  const failed = (message?: string) => {
    const reason = message || CHECKOUT_TEXTS.paymentFailed;
    notify.error("Payment Failed", reason);
    setDeclined(reason);
    setSubmitting(false);
    onFailed?.();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || submitting) return;
    setSubmitting(true);
    setDeclined(null);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: "if_required",
        confirmParams: { return_url: returnUrl },
      });
      if (error) return failed(error.message);
      if (paymentIntent?.status === "succeeded" || paymentIntent?.status === "processing") {
        return onPaid(paymentIntent.id, paymentIntent.status === "processing");
      }
      failed();
    } catch (error) {
      failed(error instanceof Error ? error.message : undefined);
    }
  };

  return (
    <form noValidate className="grid gap-5" onSubmit={(event) => void submit(event)} aria-busy={submitting}>
      {ready ? null : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner className="size-4" label="Loading the payment form" />
          <span aria-hidden="true">Loading the secure payment form...</span>
        </p>
      )}
      <div className="grid gap-2" aria-describedby={declined ? declinedId : undefined}>
        <PaymentElement options={elementOptions} onReady={() => setReady(true)} onChange={() => setDeclined(null)} />
        {declined ? (
          <p id={declinedId} role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive">
            <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <span className="sr-only">Payment failed: </span>
              {declined}
            </span>
          </p>
        ) : null}
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || !elements || !ready || submitting}>
        {submitting ? <ButtonSpinner /> : <Lock aria-hidden="true" />}
        {submitting ? "Processing..." : payLabel}
      </Button>
    </form>
  );
}
