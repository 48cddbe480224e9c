import { Controller, useFormContext } from "react-hook-form";
import { MAX_TOKENS, TEMPERATURE } from "../../../../../../shared/constants.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../../components/ui/select.js";
import { SecretInput } from "../../../common/components/secret-input.js";
import type { SharedPlatformValues } from "./platform-form-schema.js";

/** Fields both the create and the edit form have; they read the form through FormProvider. */
function useShared() {
  return useFormContext<SharedPlatformValues>();
}

export function ApiKeyField({ idPrefix, placeholder, hint }: { idPrefix: string; placeholder?: string; hint?: string }) {
  const form = useShared();
  return (
    <SecretInput
      id={`${idPrefix}-api-key`}
      label="API key"
      secret="API key"
      placeholder={placeholder}
      hint={hint}
      error={form.formState.errors.apiKey?.message}
      {...form.register("apiKey")}
    />
  );
}

export function BaseUrlField({ idPrefix, hint }: { idPrefix: string; hint: string }) {
  const form = useShared();
  return (
    <TextField
      id={`${idPrefix}-base-url`}
      label="Base URL"
      type="url"
      inputMode="url"
      spellCheck={false}
      placeholder="https://api.example.com/v1"
      hint={hint}
      error={form.formState.errors.baseUrl?.message}
      {...form.register("baseUrl")}
    />
  );
}

export function ModelsField({ idPrefix }: { idPrefix: string }) {
  const form = useShared();
  return (
    <TextField
      id={`${idPrefix}-models`}
      label="Models"
      spellCheck={false}
      placeholder="gpt-4o, gpt-4o-mini"
      hint="Comma separated, as the provider names them."
      error={form.formState.errors.modelsText?.message}
      {...form.register("modelsText")}
    />
  );
}

/** Temperature (0 to 1, step 0.1) and Max tokens (at least 1), side by side. */
export function GenerationFields({ idPrefix }: { idPrefix: string }) {
  const form = useShared();
  const { errors } = form.formState;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        id={`${idPrefix}-temperature`}
        label="Temperature"
        type="number"
        min={TEMPERATURE.min}
        max={TEMPERATURE.max}
        step={TEMPERATURE.step}
        error={errors.temperature?.message}
        {...form.register("temperature", { valueAsNumber: true })}
      />
      <TextField
        id={`${idPrefix}-max-tokens`}
        label="Max tokens"
        type="number"
        min={1}
        step={1}
        placeholder={String(MAX_TOKENS.default)}
        error={errors.maxTokens?.message}
        {...form.register("maxTokens", { valueAsNumber: true })}
      />
    </div>
  );
}

/** A choice among a few values (a Radix select) of the shared fields. */
function ChoiceField(props: {
  id: string;
  name: "status" | "api";
  label: string;
  hint?: string;
  options: readonly { value: string; label: string }[];
}) {
  const form = useShared();
  return (
    <FormField id={props.id} label={props.label} hint={props.hint} error={form.formState.errors[props.name]?.message}>
      <Controller
        control={form.control}
        name={props.name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger id={props.id} onBlur={field.onBlur}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {props.options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}

const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
] as const;

export function StatusField({ idPrefix, hint }: { idPrefix: string; hint?: string }) {
  return <ChoiceField id={`${idPrefix}-status`} name="status" label="Status" hint={hint} options={STATUS_OPTIONS} />;
}

const API_OPTIONS = [
  { value: "chat-completions", label: "Chat Completions" },
  { value: "responses", label: "Responses" },
] as const;

/** Which OpenAI API the platform's replies use (decision 050); shown for OpenAI platforms only. */
export function ApiField({ idPrefix }: { idPrefix: string }) {
  return (
    <ChoiceField
      id={`${idPrefix}-api`}
      name="api"
      label="API"
      hint="Chat Completions works with every OpenAI-compatible gateway too; Responses is OpenAI's newer API."
      options={API_OPTIONS}
    />
  );
}
