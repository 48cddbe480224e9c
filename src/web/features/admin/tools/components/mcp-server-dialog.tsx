import { zodResolver } from "@hookform/resolvers/zod";
import { CircleAlert, CircleCheck, Plus, Trash2 } from "lucide-react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { PLAN_TYPES } from "../../../../../shared/constants.js";
import { type AdminMcpServer, MCP_HEADERS_MAX, MCP_TRANSPORT_LABELS, MCP_TRANSPORTS } from "../../../../../shared/contracts/mcp-servers.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { Button } from "../../../../components/ui/button.js";
import { Checkbox } from "../../../../components/ui/checkbox.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../components/ui/dialog.js";
import { FieldError, FormField, TextField } from "../../../../components/ui/form-field.js";
import { Input } from "../../../../components/ui/input.js";
import { Label } from "../../../../components/ui/label.js";
import { NativeSelect } from "../../../../components/ui/native-select.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { cn } from "../../../../lib/cn.js";
import { applyServerFieldErrors } from "../../../../lib/form-errors.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { SecretInput } from "../../common/components/secret-input.js";
import { useCreateMcpServer, useRefreshMcpServer, useTestMcpServer, useUpdateMcpServer } from "../api.js";
import { formValues, type McpServerFormValues, mcpServerFormSchema, serverBody } from "./mcp-server-form-schema.js";

const ID = "mcp-server";
const FIELDS = ["name", "url", "transport", "headers", "plans"] as const;

/** What the connection test said, in the dialog: passed (with the tools) or failed, in plain words. */
function TestResult({ result }: { result: { ok: boolean; message: string } }) {
  const Icon = result.ok ? CircleCheck : CircleAlert;
  return (
    <div
      role="status"
      className={cn(
        "flex gap-2 rounded-lg border px-3 py-2 text-sm",
        result.ok
          ? "border-emerald-500/40 bg-emerald-500/10 text-emerald-900 dark:text-emerald-200"
          : "border-destructive/40 bg-destructive/10 text-red-700 dark:bg-destructive/15 dark:text-red-300",
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 break-words">{result.message}</p>
    </div>
  );
}

/** Add MCP Server (no `server`) or Edit: name, URL, transport, headers (secrets never shown again) and plans. */
export function McpServerDialog({ server, onClose }: { server?: AdminMcpServer; onClose: () => void }) {
  const form = useForm<McpServerFormValues>({ resolver: zodResolver(mcpServerFormSchema), defaultValues: formValues(server) });
  const headers = useFieldArray({ control: form.control, name: "headers" });
  const create = useCreateMcpServer();
  const update = useUpdateMcpServer();
  const refresh = useRefreshMcpServer();
  const test = useTestMcpServer();
  const pending = create.isPending || update.isPending || refresh.isPending;
  const { errors } = form.formState;

  const onError = (error: unknown) => {
    const hit = applyServerFieldErrors(form.setError, error, FIELDS);
    if (hit.length === 0) notify.error(server ? "Could not save the server" : "Could not add the server", errorMessage(error));
  };
  const persist = (values: McpServerFormValues) => {
    const body = serverBody(values);
    const saving = server ? update.mutateAsync({ id: server.id, body }) : create.mutateAsync(body);
    return savedOrNot(
      saving.then(
        async (saved) => {
          // A new server, or one whose address or headers changed (the server forgot its last result), lists its tools
          // at once; a failure is kept on its card, in plain words.
          if (saved.lastOk === null) await refresh.mutateAsync(saved.id).catch(() => undefined);
          notify.success(server ? "MCP server saved" : "MCP server added");
          onClose();
        },
        (error: unknown) => {
          onError(error);
          throw error;
        },
      ),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  const runTest = form.handleSubmit((values) => {
    const { url, transport, headers: sent } = serverBody(values);
    test.mutate({ id: server?.id, url, transport, headers: sent });
  });
  const testResult = test.isSuccess
    ? { ok: true, message: `${test.data.message}${test.data.tools.length ? `: ${test.data.tools.map((t) => t.name).join(", ")}` : ""}` }
    : test.isError
      ? { ok: false, message: errorMessage(test.error) }
      : null;
  const headerError = errors.headers?.message ?? errors.headers?.root?.message;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-h-[90dvh] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{server ? `Edit ${server.name}` : "Add MCP Server"}</DialogTitle>
          <DialogDescription>
            A server reached over HTTP that offers tools to the chat. Header values are stored encrypted and never shown again.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-5" onSubmit={onSubmit} aria-label={server ? `Edit ${server.name}` : "Add MCP server"}>
          <TextField
            id={`${ID}-name`}
            label="Name"
            autoComplete="off"
            maxLength={100}
            error={errors.name?.message}
            {...form.register("name")}
          />
          <div className="grid gap-5 sm:grid-cols-[1fr_13rem]">
            <TextField
              id={`${ID}-url`}
              label="URL"
              type="url"
              inputMode="url"
              spellCheck={false}
              placeholder="https://tools.example.com/mcp"
              hint="Local and private addresses work; link-local and cloud metadata addresses are refused."
              error={errors.url?.message}
              {...form.register("url")}
            />
            <FormField id={`${ID}-transport`} label="Transport" error={errors.transport?.message}>
              <NativeSelect id={`${ID}-transport`} {...form.register("transport")}>
                {MCP_TRANSPORTS.map((t) => (
                  <option key={t} value={t}>
                    {MCP_TRANSPORT_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">
              Headers <span className="font-normal text-muted-foreground">(optional, such as an API key)</span>
            </legend>
            {headers.fields.map((field, i) => {
              const row = form.getValues(`headers.${i}`);
              return (
                <div
                  key={field.id}
                  className="grid items-start gap-2 rounded-lg border p-3 sm:grid-cols-[12rem_1fr_auto] sm:border-0 sm:p-0"
                >
                  <div className="grid gap-1">
                    <Label htmlFor={`${ID}-header-${i}-name`} className="sr-only">
                      Header {i + 1} name
                    </Label>
                    <Input
                      id={`${ID}-header-${i}-name`}
                      placeholder="x-api-key"
                      autoComplete="off"
                      spellCheck={false}
                      className="font-mono"
                      aria-invalid={errors.headers?.[i]?.name ? true : undefined}
                      aria-describedby={errors.headers?.[i]?.name ? `${ID}-header-${i}-name-error` : undefined}
                      {...form.register(`headers.${i}.name`)}
                    />
                    <FieldError id={`${ID}-header-${i}-name-error`} message={errors.headers?.[i]?.name?.message} />
                  </div>
                  <SecretInput
                    id={`${ID}-header-${i}-value`}
                    label={<span className="sr-only">Header {i + 1} value</span>}
                    secret={`header ${i + 1} value`}
                    placeholder={row?.stored ? "Stored (kept)" : "Value"}
                    error={errors.headers?.[i]?.value?.message}
                    {...form.register(`headers.${i}.value`)}
                  />
                  <Button variant="ghost" size="icon" aria-label={`Remove header ${i + 1}`} onClick={() => headers.remove(i)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              );
            })}
            {headers.fields.length < MCP_HEADERS_MAX ? (
              <Button variant="outline" size="sm" className="w-fit" onClick={() => headers.append({ name: "", value: "", stored: false })}>
                <Plus aria-hidden="true" />
                Add header
              </Button>
            ) : null}
            {headers.fields.some((_, i) => form.getValues(`headers.${i}.stored`)) ? (
              <p className="text-xs text-muted-foreground">
                A stored value is kept while its box stays empty; type a new one to replace it.
              </p>
            ) : null}
            <FieldError id={`${ID}-headers-error`} message={headerError} />
          </fieldset>
          <Controller
            control={form.control}
            name="plans"
            render={({ field }) => (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">Plans that may use it</legend>
                <div className="flex flex-wrap gap-4">
                  {PLAN_TYPES.map((plan) => {
                    const id = `${ID}-plan-${plan}`;
                    return (
                      <div key={plan} className="flex items-center gap-2">
                        <Checkbox
                          id={id}
                          checked={field.value.includes(plan)}
                          onCheckedChange={(checked) =>
                            field.onChange(checked === true ? [...field.value, plan] : field.value.filter((p) => p !== plan))
                          }
                        />
                        <Label htmlFor={id}>{PLAN_LABELS[plan]}</Label>
                      </div>
                    );
                  })}
                </div>
                <p className="text-xs text-muted-foreground">Admins can always use it. With no plan checked, only admins can.</p>
              </fieldset>
            )}
          />
          {testResult ? <TestResult result={testResult} /> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => void runTest()} disabled={pending || test.isPending}>
              {test.isPending ? <ButtonSpinner /> : null}
              {test.isPending ? "Testing..." : "Test connection"}
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {pending ? "Saving..." : server ? "Save Changes" : "Add Server"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
