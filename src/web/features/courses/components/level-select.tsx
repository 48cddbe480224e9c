import { FormField } from "../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { type CourseLevel, LEVEL_LABELS, LEVELS } from "../training-hints.js";

/** The course level of the AI hints (Course Training, "From my material"). */
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
