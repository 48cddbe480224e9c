import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { PLAN_TYPES } from "../../../../../../shared/constants.js";
import {
  type AdminPlatformSettings,
  type PlatformSettingsForm as FormValues,
  PLATFORM_NAME_MAX,
  PLATFORM_SETTINGS_FIELDS,
  platformSettingsFormSchema,
  TOOL_CALL_TIMEOUT_LIMIT_SECONDS,
  TOOL_MAX_STEPS_LIMIT,
} from "../../../../../../shared/contracts/platform-settings.js";
import { PLAN_LABELS } from "../../../../../../shared/plan.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";
import { TextField } from "../../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { SwitchField } from "../../../../../components/ui/switch-field.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../../lib/form-errors.js";
import { notify } from "../../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useUpdatePlatformSettings } from "../../../common/api.js";
import { DefaultModelField } from "./default-model-field.js";

function formValues(settings: AdminPlatformSettings): FormValues {
  return {
    platformName: settings.platformName,
    defaultModel: settings.defaultModel,
    allowRegistration: settings.allowRegistration,
    enableHistory: settings.enableHistory,
    enableModelSelection: settings.enableModelSelection,
    supportEmail: settings.supportEmail ?? "",
    toolMaxSteps: settings.toolMaxSteps,
    toolCallTimeoutSeconds: settings.toolCallTimeoutSeconds,
    apiTokenPlans: settings.apiTokenPlans,
  };
}

/** The platform-wide settings, checked with the same schema as PATCH /api/admin/platform-settings. */
export function PlatformSettingsForm({ settings }: { settings: AdminPlatformSettings }) {
  const form = useForm<FormValues>({ resolver: zodResolver(platformSettingsFormSchema), defaultValues: formValues(settings) });
  const update = useUpdatePlatformSettings();
  const { errors, isDirty } = form.formState;

  const persist = (body: FormValues) =>
    savedOrNot(
      update.mutateAsync(body, {
        onSuccess: (saved) => {
          form.reset(formValues(saved));
          notify.success("Settings updated", "The platform settings have been saved.");
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, PLATFORM_SETTINGS_FIELDS);
          notify.error("Update failed", errorMessage(error));
        },
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: isDirty, save: saveForm(form, persist) });

  return (
    <form noValidate className="grid gap-6" onSubmit={onSubmit} aria-label="Platform settings">
      <Card>
        <CardHeader>
          <CardTitle>General</CardTitle>
          <CardDescription>The product name people see, the model chats start with, and where contact messages go.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <TextField
            id="platform-name"
            label="Platform name"
            autoComplete="off"
            maxLength={PLATFORM_NAME_MAX}
            className="sm:max-w-md"
            hint="Shown in the header and the browser tab."
            error={errors.platformName?.message}
            {...form.register("platformName")}
          />
          <Controller
            control={form.control}
            name="defaultModel"
            render={({ field, fieldState }) => (
              <DefaultModelField
                value={field.value}
                follows={settings.defaultModelFollows && field.value === settings.defaultModel}
                error={fieldState.error?.message}
                onChange={field.onChange}
              />
            )}
          />
          <TextField
            id="platform-support-email"
            label={
              <>
                Support email <span className="font-normal text-muted-foreground">(optional)</span>
              </>
            }
            type="email"
            autoComplete="off"
            placeholder="support@example.com"
            maxLength={254}
            className="sm:max-w-md"
            hint="Shown on the contact page; contact messages are sent to it. Empty: they go to every admin."
            error={errors.supportEmail?.message}
            {...form.register("supportEmail")}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Features</CardTitle>
          <CardDescription>These apply to everyone, and the server enforces them.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <Controller
            control={form.control}
            name="allowRegistration"
            render={({ field }) => (
              <SwitchField
                label="Allow registration"
                description="Visitors can create an account from the Register tab. When off, sign-ups are refused."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Controller
            control={form.control}
            name="enableHistory"
            render={({ field }) => (
              <SwitchField
                label="Chat history"
                description="Chats are kept in each person's history. When off, every new chat is temporary, whatever their own setting."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Controller
            control={form.control}
            name="enableModelSelection"
            render={({ field }) => (
              <SwitchField
                label="Model selection"
                description="People pick the model in each chat. When off, there is no picker and every chat uses the default model."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Tools in chat</CardTitle>
          <CardDescription>How far a reply may go with tools (MCP servers and the built-in tools).</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <TextField
            id="platform-tool-max-steps"
            label="Tool steps per reply"
            type="number"
            inputMode="numeric"
            min={1}
            max={TOOL_MAX_STEPS_LIMIT}
            step={1}
            hint={`How many rounds of tool calls one reply may take (1 to ${TOOL_MAX_STEPS_LIMIT}); then the model answers with what it has.`}
            error={errors.toolMaxSteps?.message}
            {...form.register("toolMaxSteps", { valueAsNumber: true })}
          />
          <TextField
            id="platform-tool-timeout"
            label="Tool call timeout (seconds)"
            type="number"
            inputMode="numeric"
            min={1}
            max={TOOL_CALL_TIMEOUT_LIMIT_SECONDS}
            step={1}
            hint={`How long one tool call may run (1 to ${TOOL_CALL_TIMEOUT_LIMIT_SECONDS} seconds); a call that takes longer gives the model an error.`}
            error={errors.toolCallTimeoutSeconds?.message}
            {...form.register("toolCallTimeoutSeconds", { valueAsNumber: true })}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>API tokens</CardTitle>
          <CardDescription>
            Which plans may make personal API tokens (Settings, Developer). A plan turned off stops its users' tokens at once.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <fieldset className="grid gap-2">
            <legend className="sr-only">Plans that may make API tokens</legend>
            {PLAN_TYPES.map((plan) => (
              <label key={plan} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={plan} className="size-4 accent-primary" {...form.register("apiTokenPlans")} />
                {PLAN_LABELS[plan]}
              </label>
            ))}
          </fieldset>
        </CardContent>
      </Card>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        {isDirty ? <p className="text-sm text-muted-foreground sm:mr-auto">You have unsaved changes.</p> : null}
        <Button variant="outline" disabled={!isDirty || update.isPending} onClick={() => form.reset(formValues(settings))}>
          Discard changes
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <ButtonSpinner /> : null}
          {update.isPending ? "Saving..." : "Save Settings"}
        </Button>
      </div>
    </form>
  );
}
