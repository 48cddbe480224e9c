import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { type RegisterForm, registerFormSchema, registerStepOneSchema } from "../../../../shared/contracts/auth.js";
import { clearPendingRegistration, readPendingRegistration, savePendingRegistration } from "../../../domain/pending-registration.js";
import { publicPlatformSettingsQuery, usePlatformName } from "../../../domain/platform-settings.js";
import { useRegisterAccount } from "../../../domain/register-account.js";
import { displayName } from "../../../domain/session.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";

const stepOneFields = ["username", "name", "email", "password", "confirmPassword"] as const;
const stepOneResolver = zodResolver(registerStepOneSchema) as unknown as Resolver<RegisterForm>;
const fullResolver = zodResolver(registerFormSchema) as Resolver<RegisterForm>;

function initialValues(): RegisterForm {
  const pending = readPendingRegistration();
  return {
    username: pending?.username ?? "",
    name: pending?.name ?? "",
    email: pending?.email ?? "",
    password: "",
    confirmPassword: "",
    planType: pending?.planType ?? "earlyAccess",
    acceptTerms: true,
  };
}

export type RegisterFlow = ReturnType<typeof useRegisterFlow>;

/** What was typed, kept by the page while the Register tab is closed. */
export type RegisterDraft = { values: RegisterForm | null; step: 1 | 2 };

/**
 * State of the two-step Register tab. Step 1 is checked with the step-one
 * schema; Create Account with the whole form's schema. What was typed goes
 * back into `draft` when the tab closes, so Login and back keeps it.
 */
export function useRegisterFlow(draft: RegisterDraft) {
  const [, navigate] = useLocation();
  const [step, setStep] = useState<1 | 2>(draft.step);
  const stepRef = useRef<1 | 2>(draft.step);
  const goTo = (next: 1 | 2) => {
    stepRef.current = next;
    setStep(next);
  };
  const form = useForm<RegisterForm>({
    defaultValues: draft.values ?? initialValues(),
    resolver: (values, context, options) => (stepRef.current === 1 ? stepOneResolver : fullResolver)(values, context, options),
  });

  useEffect(
    () => () => {
      draft.values = form.getValues();
      draft.step = stepRef.current;
    },
    [draft, form],
  );

  const client = useQueryClient();
  const platformName = usePlatformName();
  const register = useRegisterAccount({
    onSuccess: (user) => {
      clearPendingRegistration();
      notify.success("Registration successful", `Welcome to ${platformName}, ${displayName(user)}! Your account is ready.`);
    },
    onError: (error) => {
      // Registration was closed while the form was open: read the settings again so the tab says so.
      if (isApiError(error) && error.status === 403) void client.invalidateQueries({ queryKey: publicPlatformSettingsQuery.queryKey });
      if (applyServerFieldErrors(form.setError, error, stepOneFields).length > 0) goTo(1);
      notify.error("Registration failed", errorMessage(error));
    },
  });

  const next = form.handleSubmit(() => goTo(2));
  const create = form.handleSubmit((values) => {
    if (values.planType === "free") {
      register.mutate(values);
      return;
    }
    const { username, name, email, password, planType, acceptTerms } = values;
    savePendingRegistration({ username, name, email, password, planType, acceptTerms });
    navigate(paths.checkout);
  });

  return { form, step, back: () => goTo(1), onSubmit: step === 1 ? next : create, isPending: register.isPending };
}
