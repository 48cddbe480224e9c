import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { PLAN_TYPES } from "../../../../../shared/constants.js";
import { type PlanStorageLimitsForm, planStorageLimitsFormSchema, storageLimitsToForm } from "../../../../../shared/contracts/usage.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { TextField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner, Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { planStorageLimitsQuery, useSavePlanStorageLimits } from "../plan-limits-api.js";

type Output = z.output<typeof planStorageLimitsFormSchema>;

export const STORAGE_LIMITS_SAVED = ["Library limits updated", "New uploads are checked against them at once."] as const;

const EMPTY: PlanStorageLimitsForm = {
  free: { storageBytes: "", maxFiles: "", maxFileBytes: "" },
  earlyAccess: { storageBytes: "", maxFiles: "", maxFileBytes: "" },
};

/**
 * Per plan, the knowledge library's storage (MB), files per user and the largest file (MB), blank meaning unlimited.
 * Administrators are never limited; files already stored stay when a limit goes down.
 */
export function PlanStorageCard() {
  const saved = useQuery(planStorageLimitsQuery);
  const form = useForm<PlanStorageLimitsForm, unknown, Output>({
    resolver: zodResolver(planStorageLimitsFormSchema),
    defaultValues: saved.data ? storageLimitsToForm(saved.data) : EMPTY,
  });
  const save = useSavePlanStorageLimits();
  const { errors, isDirty } = form.formState;

  useEffect(() => {
    if (saved.data && !form.formState.isDirty) form.reset(storageLimitsToForm(saved.data));
  }, [form, saved.data]);

  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (answer) => {
        form.reset(storageLimitsToForm(answer));
        notify.success(...STORAGE_LIMITS_SAVED);
      },
      onError: (failure) => notify.error("Failed to update library limits", errorMessage(failure, "An unexpected error occurred.")),
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Knowledge library limits</CardTitle>
        <CardDescription>
          How much each plan may keep in the knowledge library: storage and the largest file in MB, and files per user. Leave a field blank
          for unlimited. Administrators are never limited; files already stored stay when a limit goes down.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {saved.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading library limits..." />
            <span aria-hidden="true">Loading library limits...</span>
          </div>
        ) : saved.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The library limits could not be read ({errorMessage(saved.error)}). Reload the page to try again.
          </p>
        ) : (
          <form noValidate className="grid gap-5" onSubmit={onSubmit} aria-label="Knowledge library limits">
            {PLAN_TYPES.map((plan) => (
              <fieldset key={plan} className="grid gap-3 rounded-lg border p-4">
                <legend className="px-1 text-sm font-medium">{PLAN_LABELS[plan]} plan</legend>
                <div className="grid items-start gap-4 sm:grid-cols-3">
                  <TextField
                    id={`storage-${plan}-bytes`}
                    label="Storage (MB)"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="Unlimited"
                    hint="All of a user's files together"
                    error={errors[plan]?.storageBytes?.message}
                    {...form.register(`${plan}.storageBytes`)}
                  />
                  <TextField
                    id={`storage-${plan}-files`}
                    label="Files per user"
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="Unlimited"
                    hint="In collections and attached to messages"
                    error={errors[plan]?.maxFiles?.message}
                    {...form.register(`${plan}.maxFiles`)}
                  />
                  <TextField
                    id={`storage-${plan}-largest`}
                    label="Largest file (MB)"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="Unlimited (512)"
                    hint="At most 512 MB"
                    error={errors[plan]?.maxFileBytes?.message}
                    {...form.register(`${plan}.maxFileBytes`)}
                  />
                </div>
              </fieldset>
            ))}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
              {isDirty ? <p className="text-sm text-muted-foreground sm:mr-auto">You have unsaved changes.</p> : null}
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <ButtonSpinner /> : null}
                {save.isPending ? "Saving..." : "Save Library Limits"}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
