import { useState } from "react";
import { SliderField } from "../../../components/ui/slider-field.js";

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
  const [draft, setDraft] = useState<number | null>(null);
  // The saved value moved (the optimistic update, or a revert after a failure): show it.
  const [seenValue, setSeenValue] = useState(value);
  if (seenValue !== value) {
    setSeenValue(value);
    setDraft(null);
  }
  return (
    <SliderField
      label={label}
      hint={description}
      value={draft ?? value}
      min={min}
      max={max}
      step={step}
      format={format}
      disabled={disabled}
      onChange={setDraft}
      onCommit={(next) => {
        if (next === value) setDraft(null);
        else onCommit(next);
      }}
    />
  );
}
