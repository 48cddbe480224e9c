import { useId, useState } from "react";
import { Label } from "../../../components/ui/label.js";
import { Slider } from "../../../components/ui/slider.js";

/**
 * A slider that shows its value while dragging and saves only when the drag is
 * committed (Radix onValueCommit), so one drag makes one call.
 */
export function SettingSlider({
  label,
  description,
  value,
  min,
  max,
  step,
  format,
  disabled,
  onCommit,
}: {
  label: string;
  description: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (value: number) => string;
  disabled?: boolean;
  onCommit: (value: number) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<number | null>(null);
  const shown = draft ?? value;
  // The saved value moved (the optimistic update, or a revert after a failure): show it.
  const [seenValue, setSeenValue] = useState(value);
  if (seenValue !== value) {
    setSeenValue(value);
    setDraft(null);
  }
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-4">
        <Label id={`${id}-label`}>{label}</Label>
        <output aria-live="polite" className="rounded-md bg-muted px-2 py-0.5 font-mono text-sm tabular-nums">
          {format(shown)}
        </output>
      </div>
      <Slider
        min={min}
        max={max}
        step={step}
        value={[shown]}
        disabled={disabled}
        thumbLabelledBy={`${id}-label`}
        onValueChange={([next]) => setDraft(next ?? null)}
        onValueCommit={([next]) => {
          if (next === undefined || next === value) setDraft(null);
          else onCommit(next);
        }}
      />
      <p className="text-xs text-muted-foreground">{description}</p>
    </div>
  );
}
