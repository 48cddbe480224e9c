import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { type Control, Controller, useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import {
  type AdminPaymentSettings,
  type PaymentSettingsForm,
  paymentSettingsFormSchema,
} from "../../../../../shared/contracts/payments.js";
import { formatPrice } from "../../../../../shared/format-price.js";
import { maskStripeId, toMinorUnits } from "../../../../../shared/money.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { TextField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../lib/form-errors.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { useSavePaymentSettings } from "../api.js";

const FIELDS = ["earlyAccessPrice", "currency"] as const;

export const PAYMENT_SAVED = ["Payment settings updated", "Your payment configuration has been saved successfully."] as const;
export const PAYMENT_SAVE_FAILED = "Failed to update payment settings";
export const saveFailedMessage = (error: unknown) => errorMessage(error, "An unexpected error occurred.");

function Preview({ control }: { control: Control<PaymentSettingsForm, unknown, Output> }) {
  const [price, currency] = useWatch({ control, name: ["earlyAccessPrice", "currency"] });
  const code = (currency ?? "").trim().toUpperCase();
  const minor = /^[A-Z]{3}$/.test(code) ? toMinorUnits(price ?? "", code) : null;
  if (minor === null || minor < 1) return null;
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      Visitors pay <span className="font-medium text-foreground">{formatPrice(price ?? "", code)}</span> once at checkout.
    </p>
  );
}

type Output = z.output<typeof paymentSettingsFormSchema>;

function StripeIds({ settings }: { settings: AdminPaymentSettings | undefined }) {
  const rows = [
    ["Stripe product id", settings?.stripeProductId ?? null],
    ["Stripe price id", settings?.stripePriceId ?? null],
  ] as const;
  return (
    <div className="grid gap-2 border-t pt-5">
      <p className="text-sm font-medium">Stripe product and price</p>
      <dl className="grid gap-2 text-sm">
        {rows.map(([label, id]) => (
          <div key={label} className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-all">
              {id ? (
                <code className="font-mono" title="Shown masked: the first 7 and the last 4 characters">
                  {maskStripeId(id)}
                </code>
              ) : (
                <span className="text-muted-foreground">Not set</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-muted-foreground">Read only, shown masked. The checkout charges the price above.</p>
    </div>
  );
}

/**
 * Early Access price and currency, checked with the shared form schema. Saving sends only these two (POST when
 * none are saved yet, else PATCH); a saved key is left as it is.
 */
export function PaymentPriceForm({
  values,
  settings,
  exists,
}: {
  values: PaymentSettingsForm;
  settings: AdminPaymentSettings | undefined;
  exists: boolean | null;
}) {
  const form = useForm<PaymentSettingsForm, unknown, Output>({ resolver: zodResolver(paymentSettingsFormSchema), defaultValues: values });
  const save = useSavePaymentSettings();
  const { errors, isDirty } = form.formState;

  // A later read (Retry after a failed one, another save) shows its values unless the admin is editing.
  const { earlyAccessPrice, currency } = values;
  useEffect(() => {
    if (!form.formState.isDirty) form.reset({ earlyAccessPrice, currency });
  }, [form, earlyAccessPrice, currency]);

  const persist = (body: Output) =>
    savedOrNot(
      save.mutateAsync(
        { body: { earlyAccessPrice: body.earlyAccessPrice, currency: body.currency }, exists },
        {
          onSuccess: (saved) => {
            form.reset({ earlyAccessPrice: saved.earlyAccessPrice, currency: saved.currency });
            notify.success(...PAYMENT_SAVED);
          },
          onError: (error) => {
            applyServerFieldErrors(form.setError, error, FIELDS);
            notify.error(PAYMENT_SAVE_FAILED, saveFailedMessage(error));
          },
        },
      ),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: isDirty, save: saveForm(form, persist) });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Early Access price</CardTitle>
        <CardDescription>
          What a new account pays, once, for Early Access. Checkouts started after a change use the new price.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <form noValidate className="grid gap-5" onSubmit={onSubmit} aria-label="Price and currency">
          <div className="grid items-start gap-5 sm:grid-cols-[minmax(0,16rem)_minmax(0,14rem)]">
            <TextField
              id="payment-price"
              label="Early Access price"
              inputMode="decimal"
              autoComplete="off"
              placeholder="297"
              hint="Such as 297 or 19.50"
              error={errors.earlyAccessPrice?.message}
              {...form.register("earlyAccessPrice")}
            />
            <Controller
              control={form.control}
              name="currency"
              render={({ field, fieldState }) => (
                <TextField
                  id="payment-currency"
                  label="Currency"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={3}
                  placeholder="USD"
                  className="[&_input]:uppercase"
                  hint="Three-letter code, such as USD"
                  error={fieldState.error?.message}
                  name={field.name}
                  ref={field.ref}
                  value={field.value ?? ""}
                  onBlur={field.onBlur}
                  onChange={(event) => field.onChange(event.target.value.toUpperCase())}
                />
              )}
            />
          </div>
          <Preview control={form.control} />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
            {isDirty ? <p className="text-sm text-muted-foreground sm:mr-auto">You have unsaved changes.</p> : null}
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? <ButtonSpinner /> : null}
              {save.isPending ? "Saving..." : "Save Settings"}
            </Button>
          </div>
        </form>
        <StripeIds settings={settings} />
      </CardContent>
    </Card>
  );
}
