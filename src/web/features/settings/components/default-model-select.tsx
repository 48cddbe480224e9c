import { useId } from "react";
import { Label } from "../../../components/ui/label.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { MODEL_OPTIONS } from "../../../lib/ai-models.js";

/** The model new chats start with. */
export function DefaultModelSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const known = MODEL_OPTIONS.some((option) => option.value === value);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Default Model</Label>
      <Select value={value} onValueChange={(next) => next !== value && onChange(next)}>
        <SelectTrigger id={id} className="sm:max-w-sm" aria-describedby={`${id}-description`}>
          <SelectValue placeholder="Choose a model" />
        </SelectTrigger>
        <SelectContent>
          {known ? null : <SelectItem value={value}>{value}</SelectItem>}
          {MODEL_OPTIONS.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p id={`${id}-description`} className="text-xs text-muted-foreground">
        New chats start with this model. You can switch models inside any chat.
      </p>
    </div>
  );
}
