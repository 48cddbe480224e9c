import { ArrowLeft, X } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { safeRedirectPath } from "../../../../shared/safe-redirect.js";
import { Logo } from "../../../components/logo.js";
import { Button } from "../../../components/ui/button.js";
import { useEarlyAccessPrice } from "../../../domain/payment-settings.js";
import { useCurrentUser } from "../../../domain/session.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { FinishStuck, PaymentCard, SetupFailed, Waiting } from "../components/checkout-status.js";
import { OrderSummary } from "../components/order-summary.js";
import { PaymentForm } from "../components/payment-form.js";
import { PaymentUnavailable } from "../components/payment-unavailable.js";
import { type CheckoutMode, useCheckout } from "../hooks/use-checkout.js";

/** `?from=`: a same-site path to go back to after an upgrade (never the checkout itself). */
function backPath(from: string | null): string {
  const path = safeRedirectPath(from, paths.home);
  return path.startsWith(paths.checkout) ? paths.home : path;
}

/** Stripe's return after a redirect (3-D Secure, bank pages): `?payment_intent=pi_...&redirect_status=...`. */
function redirectReturn(params: URLSearchParams): { paymentIntentId: string; status: string } | null {
  const paymentIntentId = params.get("payment_intent");
  const status = params.get("redirect_status");
  return paymentIntentId && status ? { paymentIntentId, status } : null;
}

/**
 * /checkout/early-access: a visitor who filled in the Register form pays for Early Access and gets the
 * account; a signed-in free user pays to upgrade (the route guard sends Early Access accounts away).
 */
export function EarlyAccessCheckoutPage() {
  usePageTitle("Early Access Checkout");
  const { user } = useCurrentUser();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const from = backPath(params.get("from"));
  const fromParam = params.get("from") ? `?from=${encodeURIComponent(from)}` : "";
  // Decided once: signing in at the end must not turn this registration into an upgrade.
  const [mode] = useState<CheckoutMode>(() => (user ? "upgrade" : "register"));
  const [redirect] = useState(() => redirectReturn(params));
  const { price } = useEarlyAccessPrice();

  const checkout = useCheckout({
    mode,
    from,
    redirect,
    // Stripe's parameters leave the address bar, so a reload does not replay the return.
    clearRedirect: () => navigate(`${location}${fromParam}`, { replace: true }),
  });

  const account = user ? { username: user.username, email: user.email } : checkout.registration;
  const back = mode === "register" ? { to: paths.register, label: "Back to registration" } : { to: from, label: "Go back" };
  const afterPaying = mode === "register" ? { to: paths.login, label: "Go to sign in" } : back;
  const { phase } = checkout;

  let payment: ReactNode;
  switch (phase.kind) {
    case "starting":
      payment = (
        <PaymentCard>
          <Waiting text="Preparing your secure checkout..." />
        </PaymentCard>
      );
      break;
    case "unavailable":
      payment = <PaymentUnavailable mode={mode} backTo={from} />;
      break;
    case "failed":
      payment = (
        <PaymentCard>
          <SetupFailed message={phase.message} onRetry={checkout.retry} backTo={back.to} backLabel={back.label} />
        </PaymentCard>
      );
      break;
    case "paying":
      payment = (
        <PaymentCard>
          <PaymentForm
            stripe={phase.stripe}
            clientSecret={phase.clientSecret}
            payLabel={`Pay ${price}`}
            returnUrl={`${window.location.origin}${paths.checkout}${fromParam}`}
            onPaid={checkout.paid}
            onFailed={() => checkout.paymentFailed(phase.paymentIntentId)}
          />
        </PaymentCard>
      );
      break;
    case "finishing":
      payment = (
        <PaymentCard>
          {phase.processing ? (
            <Waiting
              text="Your payment is processing…"
              detail="Stripe is confirming it; this page checks again every few seconds. Please keep it open."
            />
          ) : (
            <Waiting
              text={mode === "register" ? "Payment received. Creating your account..." : "Payment received. Upgrading your account..."}
            />
          )}
        </PaymentCard>
      );
      break;
    case "stuck":
      payment = (
        <PaymentCard>
          <FinishStuck
            title={phase.title}
            message={phase.message}
            processing={phase.processing}
            onRetry={() => checkout.finishAgain(phase.paymentIntentId, phase.processing)}
            backTo={afterPaying.to}
            backLabel={afterPaying.label}
          />
        </PaymentCard>
      );
      break;
  }

  const content = (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2 [&>*]:min-w-0">
      <OrderSummary account={account} />
      {payment}
    </div>
  );

  if (mode === "upgrade") {
    return (
      <div className="mx-auto grid max-w-5xl gap-6">
        <div className="grid gap-3">
          <Button variant="ghost" size="sm" asChild className="justify-self-start">
            <Link href={from}>
              <ArrowLeft aria-hidden="true" />
              Back
            </Link>
          </Button>
          <div className="space-y-1">
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Get Early Access</h1>
            <p className="text-muted-foreground">
              One payment unlocks every premium feature on your account, {user?.name || user?.username}.
            </p>
          </div>
        </div>
        {content}
      </div>
    );
  }
  // Back and Cancel while nothing is paid: Back keeps the hold, Cancel releases it at once.
  const leavable = phase.kind === "starting" || phase.kind === "paying" || phase.kind === "failed" || phase.kind === "unavailable";
  return (
    <div className="min-h-screen bg-muted/40">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-12">
        <Logo />
        {leavable ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button variant="ghost" size="sm" onClick={checkout.back} disabled={checkout.cancelling}>
              <ArrowLeft aria-hidden="true" />
              Back
            </Button>
            <Button variant="outline" size="sm" onClick={checkout.cancel} disabled={checkout.cancelling}>
              <X aria-hidden="true" />
              {checkout.cancelling ? "Cancelling..." : "Cancel checkout"}
            </Button>
          </div>
        ) : null}
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Complete your Early Access purchase</h1>
          <p className="text-muted-foreground">
            One payment unlocks every premium feature. Your account is created as soon as it succeeds.
          </p>
        </div>
        {content}
      </div>
    </div>
  );
}
