import { longTitleField } from "../../../../shared/contracts/fields.js";
import { TextField } from "../../../components/ui/form-field.js";
import type { Hints } from "../training-hints.js";
import { GoalsField, LevelSelect, ModuleCountField } from "./hint-fields.js";

export type MaterialDetails = { title: string; moduleCount: string; hints: Hints };

/** What is wrong with the details, by field (nothing: they can be sent). */
export function detailsErrors(details: MaterialDetails): { title?: string; moduleCount?: string } {
  const title = longTitleField.safeParse(details.title);
  const count = Number(details.moduleCount);
  return {
    title: title.success ? undefined : title.error.issues[0]?.message,
    moduleCount: Number.isInteger(count) && count >= 1 && count <= 12 ? undefined : "Choose between 1 and 12 modules",
  };
}

/** Step 2 of "From my material": the generation fields (the course's title, audience, level, goals, module count). */
export function MaterialDetailsFields({
  details,
  onChange,
  showErrors,
}: {
  details: MaterialDetails;
  onChange: (details: MaterialDetails) => void;
  showErrors: boolean;
}) {
  const errors = showErrors ? detailsErrors(details) : {};
  const setHints = (patch: Partial<Hints>) => onChange({ ...details, hints: { ...details.hints, ...patch } });
  return (
    <div className="grid gap-4">
      <TextField
        id="material-title"
        label="Course title"
        autoComplete="off"
        value={details.title}
        error={errors.title}
        onChange={(event) => onChange({ ...details, title: event.target.value })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="material-audience"
          label="Target audience"
          placeholder="e.g. new support staff"
          maxLength={500}
          value={details.hints.audience}
          onChange={(event) => setHints({ audience: event.target.value })}
        />
        <LevelSelect id="material-level" value={details.hints.level} onChange={(level) => setHints({ level })} />
      </div>
      <GoalsField id="material-goals" rows={2} value={details.hints.goals} onChange={(goals) => setHints({ goals })} />
      <ModuleCountField
        id="material-module-count"
        value={details.moduleCount}
        error={errors.moduleCount}
        onChange={(moduleCount) => onChange({ ...details, moduleCount })}
      />
    </div>
  );
}
