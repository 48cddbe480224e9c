import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, type Resolver, useForm } from "react-hook-form";
import { type SmtpForm as SmtpFormValues, smtpFormSchema } from "../../../../../../shared/contracts/email.js";
import { type AdminPlatformSettings, SMTP_PORT_DEFAULT } from "../../../../../../shared/contracts/platform-settings.js";
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
import { SecretInput } from "../../../common/components/secret-input.js";
import { useSmtpTest } from "../../api.js";
import { SmtpTestButton, type SmtpTestState } from "./smtp-test-button.js";

const ID = "smtp";
const FIELDS = ["smtpHost", "smtpPort", "smtpSecure", "smtpUser", "smtpPass", "smtpFromEmail", "smtpFromName", "testRecipient"] as const;

function valuesOf(settings: AdminPlatformSettings, testRecipient = ""): SmtpFormValues {
  return {
    smtpHost: settings.smtpHost ?? "",
    smtpPort: settings.smtpPort || SMTP_PORT_DEFAULT,
    smtpSecure: settings.smtpSecure,
    smtpUser: settings.smtpUser ?? "",
    smtpPass: "",
    smtpFromEmail: settings.smtpFromEmail ?? "",
    smtpFromName: settings.smtpFromName ?? "",
    testRecipient,
  };
}

/**
 * SMTP Configuration: saved through PATCH /api/admin/platform-settings; the test connects with what is typed
 * (a blank password means the stored one). The shared contract checks it here and on the server.
 */
export function SmtpForm({ settings }: { settings: AdminPlatformSettings }) {
  const passwordStored = settings.smtpPassSet;
  // The password rule follows what is stored now (the first save stores one), without a new form.
  const stored = useRef(passwordStored);
  stored.current = passwordStored;
  const resolver = useMemo<Resolver<SmtpFormValues>>(
    () => (values, context, options) => zodResolver(smtpFormSchema(stored.current))(values, context, options),
    [],
  );
  const form = useForm<SmtpFormValues>({ resolver, defaultValues: valuesOf(settings) });
  const save = useUpdatePlatformSettings();
  const test = useSmtpTest();
  const [testState, setTestState] = useState<SmtpTestState>({ status: "idle" });
  const { errors } = form.formState;

  // A result speaks for the values it was made with: editing a field puts the button back to idle.
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name && name !== "testRecipient") setTestState((state) => (state.status === "testing" ? state : { status: "idle" }));
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const persist = ({ testRecipient, ...body }: SmtpFormValues) =>
    savedOrNot(
      save.mutateAsync(body, {
        onSuccess: (saved) => {
          form.reset(valuesOf(saved, testRecipient ?? ""));
          notify.success("SMTP Settings updated");
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, FIELDS);
          notify.error("Failed to update settings", errorMessage(error));
        },
      }),
    );
  const onSave = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  const onTest = form.handleSubmit((body) => {
    setTestState({ status: "testing" });
    test.mutate(body, {
      onSuccess: (result) => {
        setTestState({ status: "success", message: result.message });
        notify.success("SMTP connection successful", result.message);
      },
      onError: (error) => {
        applyServerFieldErrors(form.setError, error, FIELDS);
        const message = errorMessage(error);
        setTestState({ status: "error", message });
        notify.error("SMTP connection failed", message);
      },
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>SMTP Configuration</CardTitle>
        <CardDescription>
          The mail server every email goes out through. Until it is set, emails stay in the built-in test inbox.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-5" onSubmit={onSave}>
          <div className="grid items-start gap-5 sm:grid-cols-[1fr_10rem]">
            <TextField
              id={`${ID}-host`}
              label="SMTP Host"
              placeholder="smtp.example.com"
              autoComplete="off"
              spellCheck={false}
              error={errors.smtpHost?.message}
              {...form.register("smtpHost")}
            />
            <TextField
              id={`${ID}-port`}
              label="Port"
              inputMode="numeric"
              placeholder={SMTP_PORT_DEFAULT}
              autoComplete="off"
              hint="25, 465 for SSL, 587 for TLS"
              error={errors.smtpPort?.message}
              {...form.register("smtpPort")}
            />
          </div>
          <Controller
            control={form.control}
            name="smtpSecure"
            render={({ field }) => (
              <SwitchField
                label="Use SSL/TLS"
                description="On for port 465 (SSL). Off for 587 and 25, which upgrade with STARTTLS when the server offers it."
                checked={!!field.value}
                onChange={field.onChange}
              />
            )}
          />
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <TextField
              id={`${ID}-user`}
              label="SMTP Username"
              autoComplete="off"
              spellCheck={false}
              error={errors.smtpUser?.message}
              {...form.register("smtpUser")}
            />
            <SecretInput
              id={`${ID}-pass`}
              label="SMTP Password"
              secret="password"
              placeholder={passwordStored ? "A password is stored" : "Enter the SMTP password"}
              hint={passwordStored ? "Stored encrypted and never shown. Leave blank to keep it, or type a new one." : undefined}
              error={errors.smtpPass?.message}
              {...form.register("smtpPass")}
            />
          </div>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <TextField
              id={`${ID}-from-email`}
              label="From Email"
              type="email"
              placeholder="noreply@example.com"
              autoComplete="off"
              error={errors.smtpFromEmail?.message}
              {...form.register("smtpFromEmail")}
            />
            <TextField
              id={`${ID}-from-name`}
              label="From Name"
              placeholder="Lumora"
              autoComplete="off"
              hint="Optional: the name recipients see."
              error={errors.smtpFromName?.message}
              {...form.register("smtpFromName")}
            />
          </div>
          <div className="grid gap-4 rounded-lg border bg-muted/30 p-4">
            <TextField
              id={`${ID}-test-recipient`}
              label="Test Recipient"
              type="email"
              placeholder="you@example.com"
              autoComplete="off"
              hint="Optional: the test also sends a real email here, directly (not through the outbox)."
              error={errors.testRecipient?.message}
              {...form.register("testRecipient")}
            />
            <SmtpTestButton state={testState} disabled={save.isPending} onTest={() => void onTest()} />
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto">
              {save.isPending ? <ButtonSpinner /> : <Save aria-hidden="true" />}
              {save.isPending ? "Saving..." : "Save SMTP Settings"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
