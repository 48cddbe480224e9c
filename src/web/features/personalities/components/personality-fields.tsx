import { Controller, type UseFormReturn } from "react-hook-form";
import { MAX_TOKENS, TEMPERATURE } from "../../../../shared/constants.js";
import { SUGGESTED_TONES } from "../../../../shared/contracts/personalities.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { SliderField } from "../../../components/ui/slider-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import type { PersonalityFormInput, PersonalityFormOutput } from "./personality-form-values.js";
import { PersonalityToolsField } from "./personality-tools-field.js";
import { PreferredModelSelect } from "./preferred-model-select.js";

type Form = UseFormReturn<PersonalityFormInput, unknown, PersonalityFormOutput>;
const ID = "personality";

const described = (field: string, error: string | undefined) =>
  error ? { "aria-invalid": true, "aria-describedby": `${ID}-${field}-error` } : {};

/** Name, Description, Tone, Instructions, Temperature, Response length, Preferred model and Tools. */
export function PersonalityFields({ form }: { form: Form }) {
  const { errors } = form.formState;
  return (
    <>
      <TextField id={`${ID}-name`} label="Name" autoComplete="off" maxLength={80} error={errors.name?.message} {...form.register("name")} />
      <FormField id={`${ID}-description`} label="Description" error={errors.description?.message} hint="What it is for, in a sentence.">
        <Textarea
          id={`${ID}-description`}
          rows={2}
          maxLength={500}
          {...described("description", errors.description?.message)}
          {...form.register("description")}
        />
      </FormField>
      <TextField
        id={`${ID}-tone`}
        label="Tone"
        autoComplete="off"
        list={`${ID}-tones`}
        maxLength={60}
        hint={`Pick one (${SUGGESTED_TONES.join(", ")}) or type your own.`}
        error={errors.tone?.message}
        {...form.register("tone")}
      />
      <datalist id={`${ID}-tones`}>
        {SUGGESTED_TONES.map((tone) => (
          <option key={tone} value={tone} />
        ))}
      </datalist>
      <FormField
        id={`${ID}-instructions`}
        label="Instructions"
        error={errors.instructions?.message}
        hint="The role and the rules the assistant follows."
      >
        <Textarea
          id={`${ID}-instructions`}
          rows={8}
          maxLength={8000}
          placeholder="You are a patient tutor. Ask one guiding question at a time..."
          {...described("instructions", errors.instructions?.message)}
          {...form.register("instructions")}
        />
      </FormField>
      <Controller
        control={form.control}
        name="temperature"
        render={({ field, fieldState }) => (
          <SliderField
            label="Temperature"
            hint="Lower is more focused and predictable; higher is more creative."
            value={Number(field.value ?? TEMPERATURE.default)}
            min={TEMPERATURE.min}
            max={TEMPERATURE.max}
            step={TEMPERATURE.step}
            format={(v) => v.toFixed(1)}
            error={fieldState.error?.message}
            onChange={field.onChange}
          />
        )}
      />
      <Controller
        control={form.control}
        name="maxTokens"
        render={({ field, fieldState }) => (
          <SliderField
            label="Response length"
            hint="The most tokens a reply may use."
            value={field.value ?? MAX_TOKENS.default}
            min={MAX_TOKENS.min}
            max={MAX_TOKENS.max}
            step={MAX_TOKENS.step}
            format={(v) => `${v} tokens`}
            error={fieldState.error?.message}
            onChange={field.onChange}
          />
        )}
      />
      <FormField
        id={`${ID}-model`}
        label="Preferred model"
        error={errors.platformSlug?.message ?? errors.model?.message}
        hint="Chats switch to it when you pick this personality."
      >
        <PreferredModelSelect
          id={`${ID}-model`}
          value={{ platformSlug: form.watch("platformSlug") ?? null, model: form.watch("model") ?? null }}
          invalid={Boolean(errors.platformSlug || errors.model)}
          onChange={(choice) => {
            form.setValue("platformSlug", choice.platformSlug, { shouldDirty: true });
            form.setValue("model", choice.model, { shouldDirty: true });
          }}
        />
      </FormField>
      <Controller
        control={form.control}
        name="tools"
        render={({ field, fieldState }) => (
          <PersonalityToolsField value={field.value ?? []} error={fieldState.error?.message} onChange={field.onChange} />
        )}
      />
    </>
  );
}
