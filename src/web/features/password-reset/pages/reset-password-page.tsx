import { zodResolver } from "@hookform/resolvers/zod";
import { CircleAlert, CircleCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, useSearch } from "wouter";
import {
  RESET_LINK_INVALID,
  type ResetPasswordBody,
  resetPasswordBodySchema,
  resetTokenField,
} from "../../../../shared/contracts/password-reset.js";
import { PASSWORD_RULE_HINT } from "../../../../shared/password-rule.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { useResetPassword } from "../api.js";
import { ResetCard } from "../components/reset-card.js";

/** The link is dead (unknown, used, expired or mangled): say so and offer a new one. */
function InvalidLink() {
  return (
    <ResetCard title="Reset link not valid" description="Links work once, for one hour.">
      <div className="grid gap-4">
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <p data-testid="reset-link-invalid">{RESET_LINK_INVALID}</p>
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
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const tokenLooksValid = resetTokenField.safeParse(token).success;
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

  const linkDead = !tokenLooksValid || (isApiError(reset.error) && reset.error.message === RESET_LINK_INVALID);
  if (linkDead) return <InvalidLink />;

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
