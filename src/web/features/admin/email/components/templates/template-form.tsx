import { zodResolver } from "@hookform/resolvers/zod";
import { Mail, Save, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type EmailTemplate,
  type EmailTemplateBody,
  emailTemplateBodySchema,
  TEMPLATE_DESCRIPTION_MAX,
  TEMPLATE_NAME_MAX,
  TEMPLATE_SLUG_MAX,
  TEMPLATE_SUBJECT_MAX,
} from "../../../../../../shared/contracts/email.js";
import { Badge } from "../../../../../components/ui/badge.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../../../components/ui/tabs.js";
import { Textarea } from "../../../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../../../lib/form-errors.js";
import { notify } from "../../../../../lib/notify.js";
import { type LeaveScope, savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useCreateTemplate, useUpdateTemplate } from "../../api.js";
import { DeleteTemplateDialog } from "./delete-template-dialog.js";
import { slugFromName, templateFailure } from "./template-messages.js";
import { TestEmailDialog } from "./test-email-dialog.js";

const ID = "template";
const FIELDS = ["name", "slug", "subject", "description", "textContent", "htmlContent"] as const;

function valuesOf(template?: EmailTemplate): EmailTemplateBody {
  return {
    name: template?.name ?? "",
    slug: template?.slug ?? "",
    subject: template?.subject ?? "",
    description: template?.description ?? "",
    textContent: template?.textContent ?? "",
    htmlContent: template?.htmlContent ?? "",
  };
}

/**
 * The template editor: a new template (no `template`) or the selected one. Plain Text and HTML content in
 * two tabs; a content error opens the tab that holds it.
 */
export function TemplateForm({
  template,
  onSaved,
  onDeleted,
  scope,
}: {
  template?: EmailTemplate;
  onSaved: (saved: EmailTemplate) => void;
  onDeleted: () => void;
  /** The panel's editor place: opening another template asks first. */
  scope: LeaveScope;
}) {
  const form = useForm<EmailTemplateBody>({ resolver: zodResolver(emailTemplateBodySchema), defaultValues: valuesOf(template) });
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const [contentTab, setContentTab] = useState<"text" | "html">("text");
  const [dialog, setDialog] = useState<"delete" | "test" | null>(null);
  const pending = create.isPending || update.isPending;
  const { errors } = form.formState;
  const action = template ? "update" : "create";
  const slugLocked = !!template?.isProductEmail;

  const showContentError = (fields: string[]) => {
    if (fields.includes("textContent")) setContentTab("text");
    else if (fields.includes("htmlContent")) setContentTab("html");
  };
  const onError = (error: unknown) => {
    showContentError(applyServerFieldErrors(form.setError, error, FIELDS));
    notify.error(`Failed to ${action} template`, templateFailure(error, action));
  };
  const persist = (body: EmailTemplateBody) => {
    const done = (saved: EmailTemplate) => {
      notify.success(template ? "Template updated" : "Template created");
      form.reset(valuesOf(saved));
      onSaved(saved);
    };
    return savedOrNot(
      template
        ? update.mutateAsync({ id: template.id, body }, { onSuccess: done, onError })
        : create.mutateAsync(body, { onSuccess: done, onError }),
    );
  };
  const showInvalid = () => {
    const invalid = form.formState.errors;
    if (!invalid.name && !invalid.slug && !invalid.subject && !invalid.description) showContentError(Object.keys(invalid));
  };
  const onSubmit = form.handleSubmit(persist, showInvalid);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist, showInvalid), scope });
  const name = form.register("name");

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>{template ? `Edit: ${template.name}` : "New Template"}</CardTitle>
          {template?.isProductEmail ? <Badge variant="secondary">Sent by the product</Badge> : null}
        </div>
        <CardDescription>
          {template?.isProductEmail
            ? "The product sends this email: edit its wording freely; it cannot be deleted and keeps its slug."
            : "Use {{variables}} such as {{name}} and {{platformName}}; values are escaped in the HTML part."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-5" onSubmit={onSubmit}>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <TextField
              id={`${ID}-name`}
              label="Template Name"
              autoComplete="off"
              maxLength={TEMPLATE_NAME_MAX}
              placeholder="Welcome Email"
              error={errors.name?.message}
              {...name}
              onChange={(event) => {
                void name.onChange(event);
                if (!template && !form.getFieldState("slug").isDirty) form.setValue("slug", slugFromName(event.target.value));
              }}
            />
            <TextField
              id={`${ID}-slug`}
              label="Template Slug"
              autoComplete="off"
              spellCheck={false}
              className="[&_input]:font-mono [&_input:read-only]:bg-muted [&_input:read-only]:text-muted-foreground"
              maxLength={TEMPLATE_SLUG_MAX}
              placeholder="welcome-email"
              readOnly={slugLocked}
              hint={
                slugLocked
                  ? "Used by the product to find this email: it cannot change."
                  : "Unique identifier used in code (lowercase, hyphens)"
              }
              error={errors.slug?.message}
              {...form.register("slug")}
            />
          </div>
          <TextField
            id={`${ID}-subject`}
            label="Email Subject"
            autoComplete="off"
            maxLength={TEMPLATE_SUBJECT_MAX}
            placeholder="Welcome to {{platformName}}, {{name}}!"
            hint="Use variables like {{name}} and {{platformName}}."
            error={errors.subject?.message}
            {...form.register("subject")}
          />
          <TextField
            id={`${ID}-description`}
            label="Description (optional)"
            autoComplete="off"
            maxLength={TEMPLATE_DESCRIPTION_MAX}
            placeholder="When this email is sent"
            error={errors.description?.message}
            {...form.register("description")}
          />
          <Tabs value={contentTab} onValueChange={(value) => setContentTab(value as "text" | "html")}>
            <TabsList className="sm:w-72">
              <TabsTrigger value="text">Plain Text</TabsTrigger>
              <TabsTrigger value="html">HTML</TabsTrigger>
            </TabsList>
            <TabsContent value="text" keepMounted>
              <FormField id={`${ID}-text`} label="Plain Text Content" error={errors.textContent?.message}>
                <Textarea
                  id={`${ID}-text`}
                  rows={12}
                  spellCheck={false}
                  className="font-mono text-xs"
                  placeholder={"Hi {{name}},\n\nWelcome to {{platformName}}!"}
                  aria-invalid={errors.textContent ? true : undefined}
                  aria-describedby={errors.textContent ? `${ID}-text-error` : undefined}
                  {...form.register("textContent")}
                />
              </FormField>
            </TabsContent>
            <TabsContent value="html" keepMounted>
              <FormField id={`${ID}-html`} label="HTML Content" error={errors.htmlContent?.message}>
                <Textarea
                  id={`${ID}-html`}
                  rows={12}
                  spellCheck={false}
                  className="font-mono text-xs"
                  placeholder={"<p>Hi {{name}},</p>\n<p>Welcome to {{platformName}}!</p>"}
                  aria-invalid={errors.htmlContent ? true : undefined}
                  aria-describedby={errors.htmlContent ? `${ID}-html-error` : undefined}
                  {...form.register("htmlContent")}
                />
              </FormField>
            </TabsContent>
          </Tabs>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center">
            {template && !template.isProductEmail ? (
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                disabled={pending}
                onClick={() => setDialog("delete")}
              >
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
              {template ? (
                <Button
                  variant="outline"
                  disabled={pending}
                  onClick={() => setDialog("test")}
                  title={form.formState.isDirty ? "The test uses the saved template: save your changes first." : undefined}
                >
                  <Mail aria-hidden="true" />
                  Test Email
                </Button>
              ) : null}
              <Button type="submit" disabled={pending}>
                {pending ? <ButtonSpinner /> : <Save aria-hidden="true" />}
                {pending ? "Saving..." : template ? "Save Changes" : "Create Template"}
              </Button>
            </div>
          </div>
        </form>
      </CardContent>
      {template && dialog === "delete" ? (
        <DeleteTemplateDialog template={template} onClose={() => setDialog(null)} onDeleted={onDeleted} />
      ) : null}
      {template && dialog === "test" ? <TestEmailDialog template={template} onClose={() => setDialog(null)} /> : null}
    </Card>
  );
}
