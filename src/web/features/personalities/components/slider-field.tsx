import { useId } from "react";
import { Label } from "../../../components/ui/label.js";
import { Slider } from "../../../components/ui/slider.js";

/** A labelled slider inside a form: shows its value, the hint under it, and an error if any. */
export function SliderField({
  label,
  hint,
  value,
  min,
  max,
  step,
  format,
  error,
  onChange,
}: {
  label: string;
  hint: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (value: number) => string;
  error?: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-4">
        <Label id={`${id}-label`}>{label}</Label>
        <output aria-live="polite" className="rounded-md bg-muted px-2 py-0.5 font-mono text-sm tabular-nums">
          {format(value)}
        </output>
      </div>
      <Slider
        min={min}
        max={max}
        step={step}
        value={[value]}
        thumbLabelledBy={`${id}-label`}
        onValueChange={([next]) => next !== undefined && onChange(next)}
      />
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p className="text-xs text-muted-foreground">{hint}</p>
      )}
    </div>
  );
}
