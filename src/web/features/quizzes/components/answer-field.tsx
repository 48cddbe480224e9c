import type { LearnerQuestion } from "../../../../shared/contracts/assessment.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { Input } from "../../../components/ui/input.js";
import { Label } from "../../../components/ui/label.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
import type { AnswerValue } from "../use-answer-autosave.js";

/**
 * One question to answer: a radio group (single choice, true or false: Tab reaches it, arrows choose), checkboxes
 * (multiple choice: Space ticks) or a text field (short answer).
 */
export function AnswerField({
  question,
  number,
  total,
  value,
  onChange,
}: {
  question: LearnerQuestion;
  number: number;
  total: number;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
}) {
  const base = `q-${question.id}`;
  const promptId = `${base}-prompt`;
  const chosen = Array.isArray(value) ? value : [];
  const heading = (
    <div className="grid gap-1">
      <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Question {number} of {total}
        {question.kind === "multiple" ? " · choose all that apply" : null}
      </p>
      <p id={promptId} className="font-medium break-words whitespace-pre-wrap">
        {question.prompt}
      </p>
    </div>
  );
  if (question.kind === "short") {
    return (
      <div className="grid gap-3 rounded-lg border p-4">
        {heading}
        <Label htmlFor={`${base}-text`} className="sr-only">
          Your answer to question {number}
        </Label>
        <Input
          id={`${base}-text`}
          aria-describedby={promptId}
          autoComplete="off"
          placeholder="Your answer"
          value={typeof value === "string" ? value : ""}
          maxLength={2000}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    );
  }
  if (question.kind === "multiple") {
    return (
      <fieldset className="grid gap-3 rounded-lg border p-4" aria-labelledby={promptId}>
        {heading}
        <div className="grid gap-2">
          {question.options.map((option, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: options are positional (answers name them by index)
            <div key={index} className="flex items-start gap-3">
              <Checkbox
                id={`${base}-option-${index}`}
                className="mt-0.5"
                checked={chosen.includes(index)}
                onCheckedChange={(on) =>
                  onChange(
                    on === true ? [...chosen.filter((i) => i !== index), index].sort((a, b) => a - b) : chosen.filter((i) => i !== index),
                  )
                }
              />
              <Label htmlFor={`${base}-option-${index}`} className="leading-snug font-normal break-words">
                {option}
              </Label>
            </div>
          ))}
        </div>
      </fieldset>
    );
  }
  return (
    <div className="grid gap-3 rounded-lg border p-4">
      {heading}
      <RadioGroup
        aria-labelledby={promptId}
        value={chosen[0] === undefined ? "" : String(chosen[0])}
        onValueChange={(picked) => onChange([Number(picked)])}
        className="gap-2"
      >
        {question.options.map((option, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: options are positional (answers name them by index)
          <div key={index} className="flex items-start gap-3">
            <RadioGroupItem id={`${base}-option-${index}`} value={String(index)} className="mt-0.5" />
            <Label htmlFor={`${base}-option-${index}`} className="leading-snug font-normal break-words">
              {option}
            </Label>
          </div>
        ))}
      </RadioGroup>
    </div>
  );
}
