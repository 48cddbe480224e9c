import { zodResolver } from "@hookform/resolvers/zod";
import { FormProvider, useForm } from "react-hook-form";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";
import { Button } from "../../../../../components/ui/button.js";
import { Checkbox } from "../../../../../components/ui/checkbox.js";
import { Label } from "../../../../../components/ui/label.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { notify } from "../../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useUpdatePlatform } from "../../api.js";
import { applyPlatformErrors } from "./apply-platform-errors.js";
import { DefaultModelField, FreeModelsField, VisionModelsField } from "./model-choice-fields.js";
import { ApiField, ApiKeyField, BaseUrlField, GenerationFields, ModelsField, StatusField } from "./platform-fields.js";
import { editPlatformFormSchema, editValuesFrom, toUpdateBody } from "./platform-form-schema.js";

type EditValues = Parameters<typeof toUpdateBody>[0];

const FIELDS = [
  "api",
  "apiKey",
  "baseUrl",
  "modelsText",
  "defaultModel",
  "freeModels",
  "visionModels",
  "temperature",
  "maxTokens",
  "status",
] as const;

/** Edit mode of a card. Save sends the changes and leaves edit mode; Cancel drops them. */
export function PlatformEditForm({ platform, onDone }: { platform: AdminPlatform; onDone: () => void }) {
  const original = editValuesFrom(platform);
  const form = useForm({ resolver: zodResolver(editPlatformFormSchema), defaultValues: original });
  const update = useUpdatePlatform();
  const idPrefix = `platform-${platform.id}`;

  const persist = (values: EditValues) =>
    savedOrNot(
      update.mutateAsync(
        { id: platform.id, body: toUpdateBody(values, platform) },
        {
          onSuccess: (saved) => {
            notify.success("Platform updated", `${saved.name} has been saved.`);
            onDone();
          },
          onError: (error) => {
            applyPlatformErrors(form.setError, error, FIELDS);
            notify.error("Error updating platform", errorMessage(error));
          },
        },
      ),
    );
  const onSubmit = form.handleSubmit(persist);
  // Leaving the page or closing the tab with edits asks first; Cancel discards (it says so).
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  const cancel = () => {
    form.reset(original);
    onDone();
  };

  const keyHint =
    platform.apiKeySource === "environment"
      ? "A key from the environment is in use; a key saved here takes its place."
      : "Stored encrypted; it is never shown again.";

  return (
    <FormProvider {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit} aria-label={`Edit ${platform.name}`}>
        <ApiKeyField
          idPrefix={idPrefix}
          placeholder={platform.hasApiKey ? "Leave empty to keep the current key" : "Paste the provider's API key"}
          hint={keyHint}
        />
        {platform.apiKeySource === "database" ? (
          <div className="flex items-center gap-2">
            <Checkbox
              id={`${idPrefix}-clear-key`}
              checked={form.watch("clearApiKey")}
              onCheckedChange={(checked) => form.setValue("clearApiKey", checked === true, { shouldDirty: true })}
            />
            <Label htmlFor={`${idPrefix}-clear-key`}>Remove stored key</Label>
          </div>
        ) : null}
        {platform.kind === "openai" ? <ApiField idPrefix={idPrefix} /> : null}
        <BaseUrlField idPrefix={idPrefix} hint="Leave empty to use the provider's own address." />
        <ModelsField idPrefix={idPrefix} />
        <DefaultModelField idPrefix={idPrefix} />
        <FreeModelsField idPrefix={idPrefix} />
        {platform.kind === "openai-compatible" ? <VisionModelsField idPrefix={idPrefix} /> : null}
        <GenerationFields idPrefix={idPrefix} />
        <StatusField
          idPrefix={idPrefix}
          hint={platform.status === "inactive" ? "Saving a new key makes an inactive platform active." : undefined}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? <ButtonSpinner /> : null}
            {update.isPending ? "Saving..." : "Save"}
          </Button>
          <Button variant="outline" onClick={cancel} disabled={update.isPending}>
            Cancel
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
