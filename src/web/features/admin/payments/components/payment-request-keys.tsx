import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, Send } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { askSecretsBodySchema, type StripeKeyName } from "../../../../../shared/contracts/payments.js";
import { Alert } from "../../../../components/ui/alert.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { FormField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { Textarea } from "../../../../components/ui/textarea.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { useAskForSecrets } from "../api.js";

type Input = z.input<typeof askSecretsBodySchema>;
type Output = z.output<typeof askSecretsBodySchema>;
const ID = "payment-request-message";

/**
 * Request keys from the owner: POST /api/ask-secrets with the missing names and an optional message. The
 * server emails every administrator where to find each key; its answer becomes the banner.
 */
export function PaymentRequestKeys({ missing, statusKnown }: { missing: StripeKeyName[]; statusKnown: boolean }) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(askSecretsBodySchema),
    defaultValues: { secret_keys: [], user_message: "" },
  });
  const ask = useAskForSecrets();
  const [sent, setSent] = useState<string | null>(null);
  const error = form.formState.errors.user_message?.message;
  // A message typed and not sent: leaving asks first (sending is not a save, so the question offers none).
  useUnsavedChanges({ dirty: form.formState.isDirty });

  const onSubmit = form.handleSubmit(({ user_message }) => {
    setSent(null);
    ask.mutate(
      { secret_keys: missing, user_message },
      {
        onSuccess: (result) => {
          setSent(result.message);
          form.reset({ secret_keys: [], user_message: "" });
        },
        onError: (failure) => notify.error("Failed to request keys", errorMessage(failure, "An unexpected error occurred.")),
      },
    );
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Request keys from the owner</CardTitle>
        <CardDescription>Emails every administrator which keys are missing and where to find them in the Stripe dashboard.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-4" onSubmit={onSubmit} aria-label="Request keys from the owner">
          {sent ? (
            <Alert>
              <CheckCircle2 aria-hidden="true" className="text-emerald-600 dark:text-emerald-400" />
              <p>{sent}</p>
            </Alert>
          ) : null}
          {missing.length > 0 ? (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-muted-foreground">
                {statusKnown ? "Missing:" : "The status could not be read, so all are asked for:"}
              </span>
              {missing.map((name) => (
                <code key={name} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {name}
                </code>
              ))}
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">Every key is configured: there is nothing to request.</p>
          )}
          <FormField id={ID} label="Message (optional)" error={error} hint="Added to the email, such as who needs the keys and by when.">
            <Textarea
              id={ID}
              rows={3}
              maxLength={5000}
              disabled={missing.length === 0}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ID}-error` : undefined}
              {...form.register("user_message")}
            />
          </FormField>
          <div className="flex justify-end">
            <Button type="submit" className="w-full sm:w-auto" disabled={missing.length === 0 || ask.isPending}>
              {ask.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
              {ask.isPending ? "Sending request..." : "Request keys"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
