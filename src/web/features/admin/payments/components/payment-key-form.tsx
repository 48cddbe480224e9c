import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type AdminPaymentSettings,
  type PaymentSettingsBody,
  paymentSettingsBodySchema,
} from "../../../../../shared/contracts/payments.js";
import { Button } from "../../../../components/ui/button.js";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { applyServerFieldErrors } from "../../../../lib/form-errors.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { SecretInput } from "../../common/components/secret-input.js";
import { useSavePaymentSettings } from "../api.js";
import { type KeyField, PAYMENT_KEYS } from "./payment-key-status.js";
import { PAYMENT_SAVE_FAILED, PAYMENT_SAVED, saveFailedMessage } from "./payment-price-form.js";

type Output = z.output<typeof paymentSettingsBodySchema>;
type Key = (typeof PAYMENT_KEYS)[number];

const FIELDS = PAYMENT_KEYS.map((key) => key.field);

function blankKeys(settings: AdminPaymentSettings): PaymentSettingsBody {
  return {
    earlyAccessPrice: settings.earlyAccessPrice,
    currency: settings.currency,
    stripeSecretKey: "",
    stripePublishableKey: "",
    stripeWebhookSecret: "",
  };
}

function hintFor(key: Key, settings: AdminPaymentSettings): string {
  const status = settings.keys[key.status];
  if (status.source === "environment") {
    return status.stored
      ? `${key.name} is set, so it is used. Remove the saved key, or type one to use once the variable is gone.`
      : `${key.name} is set, so it is used. A key typed here is saved for when the variable is gone.`;
  }
  if (status.stored) return "A key is saved. Leave blank to keep it, or type a new one to replace it.";
  return "Not saved yet. Paste it from the Stripe dashboard.";
}

/**
 * The keys typed on this page: blank keeps the stored key, "Remove saved key" sends null. The saved price and
 * currency go with them (the body needs them), so a key save never changes the price.
 */
export function PaymentKeyForm({ settings }: { settings: AdminPaymentSettings }) {
  const form = useForm<PaymentSettingsBody, unknown, Output>({
    resolver: zodResolver(paymentSettingsBodySchema),
    defaultValues: blankKeys(settings),
  });
  const save = useSavePaymentSettings();
  const remove = useSavePaymentSettings();
  const [removing, setRemoving] = useState<Key | null>(null);
  const { errors, isDirty } = form.formState;
  const exists = settings.id !== null;

  const persist = (values: Output) => {
    const typed: Partial<Record<KeyField, string>> = {};
    for (const { field } of PAYMENT_KEYS) {
      const value = values[field];
      if (value) typed[field] = value;
    }
    return savedOrNot(
      save.mutateAsync(
        { body: { earlyAccessPrice: settings.earlyAccessPrice, currency: settings.currency, ...typed }, exists },
        {
          onSuccess: (saved) => {
            form.reset(blankKeys(saved));
            notify.success(...PAYMENT_SAVED);
          },
          onError: (error) => {
            applyServerFieldErrors(form.setError, error, FIELDS);
            notify.error(PAYMENT_SAVE_FAILED, saveFailedMessage(error));
          },
        },
      ),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: isDirty, save: saveForm(form, persist) });

  const confirmRemove = () => {
    if (!removing) return;
    const key = removing;
    remove.mutate(
      { body: { earlyAccessPrice: settings.earlyAccessPrice, currency: settings.currency, [key.field]: null }, exists },
      {
        onSuccess: () => {
          setRemoving(null);
          form.resetField(key.field, { defaultValue: "" });
          notify.success(PAYMENT_SAVED[0], `The saved ${key.label.toLowerCase()} was removed.`);
        },
        onError: (error) => {
          setRemoving(null);
          notify.error(PAYMENT_SAVE_FAILED, saveFailedMessage(error));
        },
      },
    );
  };

  return (
    <form noValidate className="grid gap-5" onSubmit={onSubmit} aria-label="Stripe keys">
      {PAYMENT_KEYS.map((key) => {
        const status = settings.keys[key.status];
        const id = `payment-${key.field}`;
        return (
          <div key={key.field} className="grid min-w-0 gap-2">
            <SecretInput
              id={id}
              label={key.label}
              secret={key.label.toLowerCase()}
              placeholder={key.placeholder}
              hint={hintFor(key, settings)}
              error={errors[key.field]?.message}
              {...form.register(key.field)}
            />
            {status.stored ? (
              <Button
                variant="ghost"
                size="sm"
                className="justify-self-start px-2 text-destructive hover:bg-destructive/10 hover:text-destructive"
                disabled={remove.isPending}
                onClick={() => setRemoving(key)}
              >
                <Trash2 aria-hidden="true" />
                Remove saved key<span className="sr-only"> ({key.label.toLowerCase()})</span>
              </Button>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        <p className="text-sm text-muted-foreground sm:mr-auto">
          {isDirty ? "Blank fields keep the key saved now." : "Type only the keys you want to add or replace."}
        </p>
        <Button type="submit" disabled={!isDirty || save.isPending}>
          {save.isPending ? <ButtonSpinner /> : <KeyRound aria-hidden="true" />}
          {save.isPending ? "Saving keys..." : "Save keys"}
        </Button>
      </div>
      {removing ? (
        <ConfirmDialog
          title={`Remove the saved ${removing.label.toLowerCase()}?`}
          message={
            settings.keys[removing.status].source === "environment"
              ? `${removing.name} is set as an environment variable, so payments keep working with it.`
              : "Payments that need this key stop working until a key is saved again or set as an environment variable."
          }
          confirmLabel="Remove saved key"
          pendingLabel="Removing..."
          pending={remove.isPending}
          onConfirm={confirmRemove}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </form>
  );
}
