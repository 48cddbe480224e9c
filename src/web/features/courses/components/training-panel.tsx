import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import type { Hints } from "../training-hints.js";
import { COURSE_AI_LOCKED_NOTE_ID, CourseAiLockedNote } from "./ai-button.js";
import { GoalsField, LevelSelect } from "./hint-fields.js";

/** Course Training (BETA): audience, level, goals and notes for the AI; kept on this screen only. */
export function TrainingPanel({ hints, onChange }: { hints: Hints; onChange: (hints: Hints) => void }) {
  const set = (patch: Partial<Hints>) => onChange({ ...hints, ...patch });
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <CardTitle>Course Training</CardTitle>
          <Badge variant="beta">BETA</Badge>
        </div>
        <CardDescription>Hints that go with every AI request on this page. They are not saved with the course.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <CourseAiLockedNote id={COURSE_AI_LOCKED_NOTE_ID} />
        <TextField
          id="training-audience"
          label="Target audience"
          placeholder="e.g. new web developers"
          maxLength={500}
          value={hints.audience}
          onChange={(event) => set({ audience: event.target.value })}
        />
        <LevelSelect id="training-level" value={hints.level} onChange={(level) => set({ level })} />
        <GoalsField id="training-goals" rows={3} value={hints.goals} onChange={(goals) => set({ goals })} />
        <FormField id="training-notes" label="Notes">
          <Textarea
            id="training-notes"
            rows={3}
            maxLength={2000}
            placeholder="Tone, examples to use, topics to avoid..."
            value={hints.notes}
            onChange={(event) => set({ notes: event.target.value })}
          />
        </FormField>
      </CardContent>
    </Card>
  );
}
