import { useId } from "react";
import { Label } from "./label.js";
import { Slider } from "./slider.js";

/** A labelled slider that shows its value, the hint under it, and an error if any. `onCommit` fires when a drag ends. */
export function SliderField({
  label,
  hint,
  value,
  min,
  max,
  step,
  format,
  error,
  disabled,
  onChange,
  onCommit,
}: {
  label: string;
  hint: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (value: number) => string;
  error?: string;
  disabled?: boolean;
  onChange: (value: number) => void;
  onCommit?: (value: number) => void;
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
        disabled={disabled}
        thumbLabelledBy={`${id}-label`}
        onValueChange={([next]) => next !== undefined && onChange(next)}
        onValueCommit={([next]) => next !== undefined && onCommit?.(next)}
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
