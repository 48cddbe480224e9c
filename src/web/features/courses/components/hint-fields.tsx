import { FormField, TextField } from "../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { type CourseLevel, LEVEL_LABELS, LEVELS } from "../training-hints.js";

/** The fields of the AI's hints shared by Course Training, Generate with AI and "From my material". */

export function LevelSelect({ id, value, onChange }: { id: string; value: CourseLevel; onChange: (level: CourseLevel) => void }) {
  return (
    <FormField id={id} label="Level">
      <Select value={value} onValueChange={(level) => onChange(level as CourseLevel)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {LEVELS.map((level) => (
            <SelectItem key={level} value={level}>
              {LEVEL_LABELS[level]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  );
}

export function GoalsField({ id, rows, value, onChange }: { id: string; rows: number; value: string; onChange: (goals: string) => void }) {
  return (
    <FormField id={id} label="Learning goals">
      <Textarea
        id={id}
        rows={rows}
        maxLength={2000}
        placeholder="What should learners be able to do afterwards?"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  );
}

/** How many modules an outline asks for (1 to 12), as typed. */
export function ModuleCountField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (count: string) => void;
}) {
  return (
    <TextField
      id={id}
      label="Number of modules"
      type="number"
      inputMode="numeric"
      min={1}
      max={12}
      className="sm:max-w-40"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
