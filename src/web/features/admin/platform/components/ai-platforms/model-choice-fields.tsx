import { Controller, useFormContext, useWatch } from "react-hook-form";
import { parseModelList } from "../../../../../../shared/contracts/ai-platforms.js";
import { Checkbox } from "../../../../../components/ui/checkbox.js";
import { FormField } from "../../../../../components/ui/form-field.js";
import { Label } from "../../../../../components/ui/label.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../../components/ui/select.js";
import type { EditPlatformValues } from "./platform-form-schema.js";

function useModels() {
  const form = useFormContext<EditPlatformValues>();
  const text = useWatch({ control: form.control, name: "modelsText" });
  return { form, models: parseModelList(text ?? "") };
}

/** Default model: one of the models typed above (the first one when none is picked). */
export function DefaultModelField({ idPrefix }: { idPrefix: string }) {
  const { form, models } = useModels();
  const id = `${idPrefix}-default-model`;
  return (
    <FormField id={id} label="Default model" hint="Used when a chat names no model.">
      <Controller
        control={form.control}
        name="defaultModel"
        render={({ field }) => (
          <Select value={models.includes(field.value) ? field.value : ""} onValueChange={field.onChange} disabled={models.length === 0}>
            <SelectTrigger id={id} onBlur={field.onBlur}>
              <SelectValue placeholder={models.length ? `${models[0]} (first model)` : "Add models first"} />
            </SelectTrigger>
            <SelectContent>
              {models.map((model) => (
                <SelectItem key={model} value={model}>
                  {model}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}

/** A set of the models typed above, as checkboxes: the free-tier models, or an OpenAI-compatible server's vision models. */
function ModelSetField({
  idPrefix,
  name,
  legend,
  hint,
}: {
  idPrefix: string;
  name: "freeModels" | "visionModels";
  legend: string;
  hint: string;
}) {
  const { form, models } = useModels();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium leading-none">{legend}</legend>
      {models.length === 0 ? <p className="text-xs text-muted-foreground">Add models first.</p> : null}
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {models.map((model, index) => {
              const id = `${idPrefix}-${name}-${index}`;
              const checked = field.value.includes(model);
              return (
                <div key={model} className="flex items-center gap-2">
                  <Checkbox
                    id={id}
                    checked={checked}
                    onCheckedChange={(next) =>
                      field.onChange(next === true ? [...field.value, model] : field.value.filter((m) => m !== model))
                    }
                  />
                  <Label htmlFor={id} className="font-mono text-xs">
                    {model}
                  </Label>
                </div>
              );
            })}
          </div>
        )}
      />
      <p className="text-xs text-muted-foreground">{hint}</p>
    </fieldset>
  );
}

/** Free-tier models: the models free-plan users may chat with. */
export function FreeModelsField({ idPrefix }: { idPrefix: string }) {
  return <ModelSetField idPrefix={idPrefix} name="freeModels" legend="Free-tier models" hint="The models free-plan users may chat with." />;
}

/** An OpenAI-compatible server's models that read images (other kinds follow the providers' documentation). */
export function VisionModelsField({ idPrefix }: { idPrefix: string }) {
  return (
    <ModelSetField
      idPrefix={idPrefix}
      name="visionModels"
      legend="Models that read images"
      hint="Images attached to a message go only to these models."
    />
  );
}
