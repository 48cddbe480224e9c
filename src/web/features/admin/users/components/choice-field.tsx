import type { ReactNode } from "react";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { FormField } from "../../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../components/ui/select.js";

/** A labelled select bound to a form field (role, plan, status), with its error and hint underneath. */
export function ChoiceField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  options,
  disabled,
  hint,
}: {
  control: Control<T>;
  name: Path<T>;
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
  hint?: ReactNode;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField id={id} label={label} error={fieldState.error?.message} hint={hint}>
          <Select value={field.value as string} onValueChange={field.onChange} disabled={disabled}>
            <SelectTrigger
              id={id}
              onBlur={field.onBlur}
              aria-invalid={fieldState.error ? true : undefined}
              aria-describedby={fieldState.error ? `${id}-error` : undefined}
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
      )}
    />
  );
}
