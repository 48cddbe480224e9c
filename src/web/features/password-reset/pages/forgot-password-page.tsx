import { zodResolver } from "@hookform/resolvers/zod";
import { CircleAlert, MailCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import { type ForgotPasswordBody, forgotPasswordBodySchema } from "../../../../shared/contracts/password-reset.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { useForgotPassword } from "../api.js";
import { ResetCard } from "../components/reset-card.js";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline focus-visible:underline outline-none";

/** /forgot-password: one email field; the answer is the same whether or not an account has that email. */
export function ForgotPasswordPage() {
  usePageTitle("Forgot Password");
  const forgot = useForgotPassword();
  const form = useForm<ForgotPasswordBody>({ resolver: zodResolver(forgotPasswordBodySchema), defaultValues: { email: "" } });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    forgot.mutate(body, {
      onError: (error) => {
        if (isApiError(error) && error.fieldErrors.email) form.setError("email", { message: error.fieldErrors.email });
        notify.error("Could not send the link", errorMessage(error));
      },
    }),
  );

  if (forgot.isSuccess) {
    return (
      <ResetCard title="Check your email" description="The link works once, for one hour.">
        <div className="grid gap-4">
          <Alert>
            <MailCheck aria-hidden="true" />
            <p data-testid="forgot-password-sent">{forgot.data.message}</p>
          </Alert>
          <p className="text-sm text-muted-foreground">
            No email after a few minutes? Check your spam folder, or{" "}
            <button type="button" className={linkClass} onClick={() => forgot.reset()}>
              try again
            </button>
            .
          </p>
          <Button asChild variant="outline" className="w-full">
            <Link href={paths.login}>Back to sign in</Link>
          </Button>
        </div>
      </ResetCard>
    );
  }

  return (
    <ResetCard
      title="Forgot your password?"
      description="Enter the email of your account and we'll send you a link to choose a new password."
    >
      <form noValidate className="grid gap-4" onSubmit={submit}>
        <TextField
          id="forgot-email"
          label="Email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.email?.message}
          {...form.register("email")}
        />
        {forgot.isError && !errors.email ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <p>{errorMessage(forgot.error)}</p>
          </Alert>
        ) : null}
        <Button type="submit" className="w-full" disabled={forgot.isPending}>
          {forgot.isPending ? <ButtonSpinner /> : null}
          {forgot.isPending ? "Sending..." : "Send reset link"}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          Remembered it?{" "}
          <Link href={paths.login} className={linkClass}>
            Back to sign in
          </Link>
        </p>
      </form>
    </ResetCard>
  );
}
