import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { Logo } from "../../../components/logo.js";
import { PageSpinner } from "../../../components/ui/spinner.js";
import { clearPendingRegistration, readPendingRegistration } from "../../../domain/pending-registration.js";
import { useRegisterAccount } from "../../../domain/register-account.js";
import { displayName } from "../../../domain/session.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { OrderSummary } from "../components/order-summary.js";
import { PaymentUnavailable } from "../components/payment-unavailable.js";

/** /checkout/early-access for a signed-out visitor who filled in the registration form. */
export function EarlyAccessCheckoutPage() {
  const [, navigate] = useLocation();
  const [registration] = useState(readPendingRegistration);

  useEffect(() => {
    if (registration) return;
    notify.error("Missing Registration Data", "Please complete the registration form first.", "missing-registration");
    navigate(paths.auth, { replace: true });
  }, [registration, navigate]);

  const register = useRegisterAccount({
    onSuccess: (user) => {
      clearPendingRegistration();
      notify.success("Registration successful", `Welcome to Lumora, ${displayName(user)}! Your account is ready on the Free plan.`);
    },
    onError: (error) => notify.error("Registration Failed", errorMessage(error, "There was an error creating your account.")),
  });

  if (!registration) return <PageSpinner />;

  return (
    <div className="min-h-screen bg-muted/40">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-12">
        <Logo />
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Complete your Early Access purchase</h1>
          <p className="text-muted-foreground">One payment unlocks every premium feature of Lumora.</p>
        </div>
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <OrderSummary registration={registration} />
          <PaymentUnavailable
            isPending={register.isPending}
            onContinueFree={() => register.mutate({ ...registration, planType: "free" })}
          />
        </div>
      </div>
    </div>
  );
}
