import { zodResolver } from "@hookform/resolvers/zod";
import { ExternalLink, Send } from "lucide-react";
import { useForm } from "react-hook-form";
import {
  type EmailTemplate,
  type TemplateTestForm,
  type TemplateTestResult,
  templateTestFormSchema,
} from "../../../../../../shared/contracts/email.js";
import { Alert } from "../../../../../components/ui/alert.js";
import { Button } from "../../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../../components/ui/dialog.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { Textarea } from "../../../../../components/ui/textarea.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../../lib/form-errors.js";
import { notify } from "../../../../../lib/notify.js";
import { useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useTestTemplate } from "../../api.js";
import { sampleTestData } from "./template-messages.js";

const ID = "test-email";

/** Test Email: renders the saved template with the test data and sends it through the outbox. */
export function TestEmailDialog({ template, onClose }: { template: EmailTemplate; onClose: () => void }) {
  const form = useForm<TemplateTestForm>({
    resolver: zodResolver(templateTestFormSchema),
    defaultValues: { recipientEmail: "", testData: sampleTestData(template.variables) },
  });
  const send = useTestTemplate();
  const { errors } = form.formState;
  const result: TemplateTestResult | undefined = send.data;

  const onSubmit = form.handleSubmit(({ recipientEmail, testData }) => {
    const data = testData.trim() ? (JSON.parse(testData) as Record<string, unknown>) : {};
    send.mutate(
      { id: template.id, body: { recipientEmail, testData: data } },
      {
        onSuccess: (answer) => {
          // What was sent is no longer unsaved: closing after a send does not ask.
          form.reset({ recipientEmail, testData });
          notify.success("Test email sent", answer.message);
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, ["recipientEmail", "testData"]);
          notify.error("Failed to send test email", errorMessage(error));
        },
      },
    );
  });

  // An address or test data typed and not sent: closing the dialog or leaving the page asks first (no Save: sending is not one).
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty });

  return (
    <Dialog open onOpenChange={(open) => !open && !send.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Send Test Email</DialogTitle>
          <DialogDescription>
            Sends "{template.name}" to a real address, through the outbox like every email. While SMTP is not configured, it is kept in the
            built-in test inbox instead, with a preview.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-5" onSubmit={onSubmit}>
          <TextField
            id={`${ID}-recipient`}
            label="Recipient Email"
            type="email"
            placeholder="you@example.com"
            autoComplete="email"
            error={errors.recipientEmail?.message}
            {...form.register("recipientEmail")}
          />
          <FormField
            id={`${ID}-data`}
            label="Test Data (JSON)"
            hint="A JSON object of the template's variables. platformName is filled in for you."
            error={errors.testData?.message}
          >
            <Textarea
              id={`${ID}-data`}
              rows={6}
              spellCheck={false}
              className="font-mono text-xs"
              aria-invalid={errors.testData ? true : undefined}
              aria-describedby={errors.testData ? `${ID}-data-error` : undefined}
              {...form.register("testData")}
            />
          </FormField>
          {result ? (
            <Alert className="grid gap-2" data-testid="test-email-result">
              <p className="text-sm">{result.message}</p>
              <a
                href={result.previewUrl}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                <ExternalLink aria-hidden="true" className="size-4" />
                {result.isTestAccount ? "Open it in the test inbox" : "Open preview"}
              </a>
            </Alert>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={send.isPending}>
              Close
            </Button>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
              {send.isPending ? "Sending..." : "Send Test Email"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
