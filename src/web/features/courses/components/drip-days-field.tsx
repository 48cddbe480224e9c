import type { ComponentProps } from "react";
import { TextField } from "../../../components/ui/form-field.js";

/** The form's value of "Opens after (days)": an empty field is null (open from the start, or as its module says). */
export const dripDaysValue = {
  setValueAs: (value: unknown) => (value === "" || value === null || value === undefined ? null : Number(value)),
};

/** Drip release (issue 32): how many days after a learner starts the course this lesson or module opens. */
export function DripDaysField({ id, error, hint, ...props }: Omit<ComponentProps<typeof TextField>, "label">) {
  return (
    <TextField
      id={id}
      label="Opens after (days)"
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      placeholder="Open from the start"
      error={error}
      hint={hint}
      className="sm:max-w-60"
      {...props}
    />
  );
}
