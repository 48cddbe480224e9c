import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { PLAN_TYPES } from "../../../../../shared/constants.js";
import {
  allowancesToForm,
  type PlanAllowances,
  type PlanAllowancesForm,
  planAllowancesFormSchema,
} from "../../../../../shared/contracts/usage.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../components/ui/card.js";
import { TextField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner, Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { useSavePlanAllowances } from "../plan-limits-api.js";

type Output = z.output<typeof planAllowancesFormSchema>;

export const PLAN_LIMITS_SAVED = ["Plan limits updated", "New sends are checked against them at once."] as const;

/**
 * Per plan, a monthly token allowance and a messages-per-day allowance (UTC), blank meaning unlimited.
 * Admins are never limited. The server refuses a send with 429 once one is spent.
 */
export function PlanLimitsCard({ saved, loading, error }: { saved: PlanAllowances | undefined; loading: boolean; error: unknown }) {
  const form = useForm<PlanAllowancesForm, unknown, Output>({
    resolver: zodResolver(planAllowancesFormSchema),
    defaultValues: readableForm(saved ?? { free: NONE, earlyAccess: NONE }),
  });
  const save = useSavePlanAllowances();
  const { errors, isDirty } = form.formState;

  // A later read shows its values unless the admin is editing.
  useEffect(() => {
    if (saved && !form.formState.isDirty) form.reset(readableForm(saved));
  }, [form, saved]);

  const persist = (body: Output) =>
    savedOrNot(
      save.mutateAsync(body, {
        onSuccess: (answer) => {
          form.reset(readableForm(answer));
          notify.success(...PLAN_LIMITS_SAVED);
        },
        onError: (failure) => notify.error("Failed to update plan limits", errorMessage(failure, "An unexpected error occurred.")),
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: isDirty, save: saveForm(form, persist) });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Plan limits</CardTitle>
        <CardDescription>
          How much each plan may use: tokens per calendar month and messages per day, both counted in UTC. Leave a field blank for
          unlimited. Administrators are never limited.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {loading ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading plan limits..." />
            <span aria-hidden="true">Loading plan limits...</span>
          </div>
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            The plan limits could not be read ({errorMessage(error)}). Reload the page to try again.
          </p>
        ) : (
          <form noValidate className="grid gap-5" onSubmit={onSubmit} aria-label="Plan limits">
            {PLAN_TYPES.map((plan) => (
              <fieldset key={plan} className="grid gap-3 rounded-lg border p-4">
                <legend className="px-1 text-sm font-medium">{PLAN_LABELS[plan]} plan</legend>
                <div className="grid items-start gap-4 sm:grid-cols-2">
                  <TextField
                    id={`limit-${plan}-tokens`}
                    label="Tokens per month"
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="Unlimited"
                    hint="Input and output tokens, all AI use"
                    error={errors[plan]?.monthlyTokens?.message}
                    {...form.register(`${plan}.monthlyTokens`)}
                  />
                  <TextField
                    id={`limit-${plan}-messages`}
                    label="Messages per day"
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="Unlimited"
                    hint="Messages sent in chats; resets at midnight UTC"
                    error={errors[plan]?.messagesPerDay?.message}
                    {...form.register(`${plan}.messagesPerDay`)}
                  />
                </div>
              </fieldset>
            ))}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
              {isDirty ? <p className="text-sm text-muted-foreground sm:mr-auto">You have unsaved changes.</p> : null}
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <ButtonSpinner /> : null}
                {save.isPending ? "Saving..." : "Save Limits"}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

const NONE = { monthlyTokens: null, messagesPerDay: null };

/** The saved allowances as the fields show them: "250,000", not "250000" (the form reads both). */
function readableForm(saved: PlanAllowances): PlanAllowancesForm {
  const form = allowancesToForm(saved);
  const readable = (text: string) => (text === "" ? "" : Number(text).toLocaleString("en-US"));
  const plan = (fields: PlanAllowancesForm["free"]) => ({
    monthlyTokens: readable(fields.monthlyTokens),
    messagesPerDay: readable(fields.messagesPerDay),
  });
  return { free: plan(form.free), earlyAccess: plan(form.earlyAccess) };
}
