import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { type Path, type Resolver, useForm } from "react-hook-form";
import { useSearch } from "wouter";
import { type RegisterForm, registerFormSchema, registerStepOneSchema } from "../../../../shared/contracts/auth.js";
import { displayName } from "../../../domain/display-name.js";
import { usePaymentSettings } from "../../../domain/payment-settings.js";
import { clearPendingRegistration, readPendingRegistration, savePendingRegistration } from "../../../domain/pending-registration.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { useRegisterFree, useStartCheckout } from "../api.js";
import { useAuthHost } from "../auth-host.js";

const stepOneFields = ["username", "name", "email", "password", "confirmPassword"] as const;
const serverFields: readonly Path<RegisterForm>[] = [...stepOneFields, "acceptTerms"];
const stepOneResolver = zodResolver(registerStepOneSchema) as unknown as Resolver<RegisterForm>;
const fullResolver = zodResolver(registerFormSchema) as Resolver<RegisterForm>;

/** The registration's exact texts (docs/product.md, Exact texts). */
const SETUP_FAILED = "There was an error setting up the payment. Please try again.";

/** What the checkout left (display data only: the password is typed again) and `?plan=free` from its "Continue with the Free plan". */
function initialValues(planParam: string | null): RegisterForm {
  const pending = readPendingRegistration();
  return {
    username: pending?.username ?? "",
    name: pending?.name ?? "",
    email: pending?.email ?? "",
    password: "",
    confirmPassword: "",
    planType: planParam === "free" ? "free" : "earlyAccess",
    // Unticked: agreeing is the person's own act, not a default (it opened ticked before; decision 060 says why not).
    acceptTerms: false,
  };
}

export type RegisterFlow = ReturnType<typeof useRegisterFlow>;

/** What was typed, kept by the page while the Register tab is closed. */
export type RegisterDraft = { values: RegisterForm | null; step: 1 | 2 };

/**
 * State of the two-step Register tab. Step 1 is checked with the step-one schema; Create Account with the
 * whole form's schema. Free creates the account at once; Early Access starts a checkout on the server (the
 * registration is kept there, bound to this browser) and opens /checkout/early-access. Early Access is
 * preselected only when card payments are set up. What was typed goes back into `draft` when the tab
 * closes, so Login and back keeps it.
 */
export function useRegisterFlow(draft: RegisterDraft) {
  const planParam = new URLSearchParams(useSearch()).get("plan");
  const [step, setStep] = useState<1 | 2>(draft.step);
  const stepRef = useRef<1 | 2>(draft.step);
  const goTo = (next: 1 | 2) => {
    stepRef.current = next;
    setStep(next);
  };
  const form = useForm<RegisterForm>({
    defaultValues: draft.values ?? initialValues(planParam),
    resolver: (values, context, options) => (stepRef.current === 1 ? stepOneResolver : fullResolver)(values, context, options),
  });

  useEffect(
    () => () => {
      draft.values = form.getValues();
      draft.step = stepRef.current;
    },
    [draft, form],
  );

  // Without Stripe keys (or when the settings cannot be read) Early Access cannot be bought: Free is chosen instead.
  const payments = usePaymentSettings();
  const earlyAccessAvailable = payments.isPending || payments.settings.paymentsAvailable;
  useEffect(() => {
    if (!earlyAccessAvailable && form.getValues("planType") === "earlyAccess") form.setValue("planType", "free");
  }, [earlyAccessAvailable, form]);

  const host = useAuthHost();
  const platformName = usePlatformName();

  /** Field errors go under their fields (step 1 fields: back to step 1); says whether there were any. */
  const showFieldErrors = (error: unknown): boolean => {
    const hit = applyServerFieldErrors(form.setError, error, serverFields);
    if (hit.some((field) => (stepOneFields as readonly string[]).includes(field))) goTo(1);
    return hit.length > 0;
  };
  /** Registration was closed while the form was open: read the settings again so the tab says so. */
  const refreshIfClosed = (error: unknown) => {
    if (isApiError(error) && error.status === 403) host.settingsChanged("platform");
  };

  const register = useRegisterFree({
    onSuccess: (user) => {
      clearPendingRegistration();
      host.signedIn(user, {
        title: "Registration successful",
        description: `Welcome to ${platformName}, ${displayName(user)}! Your account is ready.`,
      });
    },
    onError: (error) => {
      refreshIfClosed(error);
      showFieldErrors(error);
      notify.error("Registration failed", errorMessage(error));
    },
  });

  const checkout = useStartCheckout({
    onSuccess: ({ paymentIntentId }) => {
      const { username, name, email } = form.getValues();
      savePendingRegistration({ username: username.trim(), name: name.trim(), email: email.trim(), paymentIntentId });
      host.open(paths.checkout);
    },
    onError: (error) => {
      refreshIfClosed(error);
      if (isApiError(error) && error.status === 503) {
        // Payments were switched off meanwhile: the card says so and Free is chosen.
        host.settingsChanged("payments");
        form.setValue("planType", "free");
        notify.error("Payment Error", errorMessage(error, SETUP_FAILED));
        return;
      }
      const onFields = showFieldErrors(error);
      if (onFields || (isApiError(error) && error.status === 403)) notify.error("Registration failed", errorMessage(error));
      else notify.error("Payment Error", errorMessage(error, SETUP_FAILED));
    },
  });

  const next = form.handleSubmit(() => goTo(2));
  const create = form.handleSubmit((values) => {
    if (values.planType === "free") register.mutate(values);
    else checkout.mutate(values);
  });

  return {
    form,
    step,
    back: () => goTo(1),
    onSubmit: step === 1 ? next : create,
    isPending: register.isPending || checkout.isPending,
    pendingLabel: checkout.isPending ? "Preparing checkout..." : "Creating account...",
    earlyAccessAvailable,
  };
}
