import { zodResolver } from "@hookform/resolvers/zod";
import { CircleAlert, CircleCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, useSearch } from "wouter";
import {
  RESET_LINK_EXPIRED,
  RESET_LINK_INVALID,
  RESET_LINK_USED,
  type ResetLinkState,
  type ResetPasswordBody,
  resetPasswordBodySchema,
  resetTokenField,
} from "../../../../shared/contracts/password-reset.js";
import { PASSWORD_RULE_HINT } from "../../../../shared/password-rule.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner, PageSpinner } from "../../../components/ui/spinner.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { useResetLinkState, useResetPassword } from "../api.js";
import { ResetCard } from "../components/reset-card.js";

/** What the page says for a link that no longer works, by what the check found. */
const DEAD_LINK: Record<Exclude<ResetLinkState, "valid">, { title: string; message: string }> = {
  used: { title: "Reset link already used", message: RESET_LINK_USED },
  expired: { title: "Reset link expired", message: RESET_LINK_EXPIRED },
  invalid: { title: "Reset link not valid", message: RESET_LINK_INVALID },
};

/** The link is dead (unknown, used, expired or mangled): say so and offer a new one. */
function InvalidLink({ state }: { state: Exclude<ResetLinkState, "valid"> }) {
  const { title, message } = DEAD_LINK[state];
  return (
    <ResetCard title={title} description="Links work once, for one hour.">
      <div className="grid gap-4">
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <p data-testid="reset-link-invalid" data-state={state}>
            {message}
          </p>
        </Alert>
        <Button asChild className="w-full">
          <Link href={paths.forgotPassword}>Ask for a new link</Link>
        </Button>
        <Button asChild variant="outline" className="w-full">
          <Link href={paths.login}>Back to sign in</Link>
        </Button>
      </div>
    </ResetCard>
  );
}

/** /reset-password?token=...: a new password with the registration rules; every session of the account ends. */
export function ResetPasswordPage() {
  usePageTitle("Reset Password");
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const tokenLooksValid = resetTokenField.safeParse(token).success;
  // Checked when the page opens, so a used or expired link says so before a password is typed (issue 29).
  const linkState = useResetLinkState(token, tokenLooksValid);
  const reset = useResetPassword();
  const form = useForm<ResetPasswordBody>({
    resolver: zodResolver(resetPasswordBodySchema),
    defaultValues: { token, password: "", confirmPassword: "" },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    reset.mutate(body, {
      onSuccess: () => notify.success("Password changed", "Sign in with your new password."),
      onError: (error) => {
        if (isApiError(error)) {
          for (const field of ["password", "confirmPassword"] as const) {
            const message = error.fieldErrors[field];
            if (message) form.setError(field, { message });
          }
        }
        notify.error("Could not change the password", errorMessage(error));
      },
    }),
  );

  if (!tokenLooksValid || (isApiError(reset.error) && reset.error.message === RESET_LINK_INVALID)) return <InvalidLink state="invalid" />;
  if (linkState.isPending && !reset.isSuccess) return <PageSpinner label="Checking your reset link" />;
  // A failed check (offline, 429) leaves the form: the reset itself still refuses a dead link.
  if (linkState.data && linkState.data !== "valid" && !reset.isSuccess) return <InvalidLink state={linkState.data} />;

  if (reset.isSuccess) {
    return (
      <ResetCard title="Password changed" description="You were signed out everywhere.">
        <div className="grid gap-4">
          <Alert>
            <CircleCheck aria-hidden="true" />
            <p data-testid="reset-password-done">{reset.data.message}</p>
          </Alert>
          <Button asChild className="w-full">
            <Link href={paths.login}>Sign in</Link>
          </Button>
        </div>
      </ResetCard>
    );
  }

  const fieldError = errors.password || errors.confirmPassword;
  return (
    <ResetCard title="Choose a new password" description="After the change, every device signed in to your account is signed out.">
      <form noValidate className="grid gap-4" onSubmit={submit}>
        <input type="hidden" {...form.register("token")} />
        <TextField
          id="reset-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_RULE_HINT}
          error={errors.password?.message}
          {...form.register("password")}
        />
        <TextField
          id="reset-confirm-password"
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        {reset.isError && !fieldError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <p>{errorMessage(reset.error)}</p>
          </Alert>
        ) : null}
        <Button type="submit" className="w-full" disabled={reset.isPending}>
          {reset.isPending ? <ButtonSpinner /> : null}
          {reset.isPending ? "Changing password..." : "Change password"}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          <Link href={paths.login} className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      </form>
    </ResetCard>
  );
}
