import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import { Controller, FormProvider, useForm } from "react-hook-form";
import { slugFromName } from "../../../../../../shared/contracts/ai-platforms.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../../components/ui/select.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { notify } from "../../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useCreatePlatform } from "../../api.js";
import { applyPlatformErrors } from "./apply-platform-errors.js";
import { ApiField, ApiKeyField, BaseUrlField, GenerationFields, ModelsField, StatusField } from "./platform-fields.js";
import { createPlatformFormSchema, emptyCreateValues, toCreateBody } from "./platform-form-schema.js";

type CreateValues = Parameters<typeof toCreateBody>[0];

import { KIND_OPTIONS } from "./platform-theme.js";

const FIELDS = ["name", "slug", "kind", "api", "apiKey", "baseUrl", "modelsText", "temperature", "maxTokens", "status"] as const;
const ID = "new-platform";

/** "Add a platform": the slug follows the name until the admin edits the slug. */
export function PlatformCreateForm({ onDone }: { onDone: () => void }) {
  const form = useForm({ resolver: zodResolver(createPlatformFormSchema), defaultValues: emptyCreateValues });
  const { errors, isSubmitted } = form.formState;
  const slugEdited = useRef(false);
  const create = useCreatePlatform();

  const persist = (values: CreateValues) =>
    savedOrNot(
      create.mutateAsync(toCreateBody(values), {
        onSuccess: (saved) => {
          notify.success("Platform created", `${saved.name} has been added.`);
          onDone();
        },
        onError: (error) => {
          applyPlatformErrors(form.setError, error, FIELDS);
          notify.error("Error creating platform", errorMessage(error));
        },
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  // Leaving the page or closing the tab with a platform half typed asks first; Cancel discards (it says so).
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  const name = form.register("name", {
    onChange: (event) => {
      if (!slugEdited.current) form.setValue("slug", slugFromName(event.target.value), { shouldValidate: isSubmitted });
    },
  });
  const slug = form.register("slug", {
    onChange: () => {
      slugEdited.current = true;
    },
  });

  return (
    <Card role="region" aria-labelledby={`${ID}-title`}>
      <CardHeader>
        <CardTitle id={`${ID}-title`}>Add a platform</CardTitle>
        <CardDescription>A named provider, or any OpenAI-compatible server (Ollama, vLLM, LM Studio, OpenRouter...).</CardDescription>
      </CardHeader>
      <CardContent>
        <FormProvider {...form}>
          <form noValidate className="grid gap-4" onSubmit={onSubmit}>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField id={`${ID}-name`} label="Name" autoComplete="off" error={errors.name?.message} {...name} />
              <TextField id={`${ID}-slug`} label="Slug" spellCheck={false} autoComplete="off" error={errors.slug?.message} {...slug} />
            </div>
            <FormField id={`${ID}-kind`} label="Kind" error={errors.kind?.message}>
              <Controller
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id={`${ID}-kind`} onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {KIND_OPTIONS.map((option) => (
                        <SelectItem key={option.value} value={option.value}>
                          {option.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            {form.watch("kind") === "openai" ? <ApiField idPrefix={ID} /> : null}
            <BaseUrlField idPrefix={ID} hint="Needed for an OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama." />
            <ApiKeyField idPrefix={ID} placeholder="Optional for a local server" hint="Stored encrypted; it is never shown again." />
            <ModelsField idPrefix={ID} />
            <GenerationFields idPrefix={ID} />
            <StatusField idPrefix={ID} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <ButtonSpinner /> : null}
                {create.isPending ? "Creating..." : "Create Platform"}
              </Button>
              <Button variant="outline" onClick={onDone} disabled={create.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </FormProvider>
      </CardContent>
    </Card>
  );
}
