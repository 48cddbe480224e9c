import { Plus, X } from "lucide-react";
import { Controller, type UseFormReturn, useFieldArray } from "react-hook-form";
import type { z } from "zod";
import { LESSON_TYPES, type outlineDraftSchema } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { FieldError } from "../../../components/ui/form-field.js";
import { Input } from "../../../components/ui/input.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { LESSON_TYPE_LABELS } from "../training-hints.js";
import { ModuleSources, PlannedSources } from "./outline-sources.js";

export type OutlineInput = z.input<typeof outlineDraftSchema>;
export type OutlineOutput = z.output<typeof outlineDraftSchema>;
type Form = UseFormReturn<OutlineInput, unknown, OutlineOutput>;

export function arrayError(error: unknown): string | undefined {
  const e = error as { message?: string; root?: { message?: string } } | undefined;
  return e?.message ?? e?.root?.message;
}

/** One proposed module: its title, description and lessons (title and type), each removable; Add lesson. A grounded
 * outline shows under each lesson the passages it draws on (or that none matched), and the module's union under its
 * description. */
export function OutlineModuleFields({
  form,
  index,
  onRemove,
  grounded = false,
}: {
  form: Form;
  index: number;
  onRemove: () => void;
  grounded?: boolean;
}) {
  const lessons = useFieldArray({ control: form.control, name: `modules.${index}.lessons` });
  const errors = form.formState.errors.modules?.[index];
  const planned = form.watch(`modules.${index}.lessons`) ?? [];
  const n = index + 1;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3">
      <legend className="px-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Module {n}</legend>
      <div className="flex items-start gap-2">
        <div className="grid flex-1 gap-1">
          <Input
            aria-label={`Module ${n} title`}
            aria-invalid={errors?.title ? true : undefined}
            {...form.register(`modules.${index}.title`)}
          />
          <FieldError id={`outline-module-${index}-title-error`} message={errors?.title?.message} />
        </div>
        <Button variant="ghost" size="icon" className="shrink-0" aria-label={`Remove module ${n}`} onClick={onRemove}>
          <X aria-hidden="true" />
        </Button>
      </div>
      <Textarea aria-label={`Module ${n} description`} rows={2} {...form.register(`modules.${index}.description`)} />
      <ModuleSources lessons={planned} />
      <ol className="grid gap-2 sm:pl-4">
        {lessons.fields.map((lesson, at) => (
          <li key={lesson.id} className="grid gap-1">
            <div className="flex items-center gap-2">
              <Input
                aria-label={`Module ${n} lesson ${at + 1} title`}
                aria-invalid={errors?.lessons?.[at]?.title ? true : undefined}
                className="flex-1"
                {...form.register(`modules.${index}.lessons.${at}.title`)}
              />
              <Controller
                control={form.control}
                name={`modules.${index}.lessons.${at}.type`}
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger aria-label={`Module ${n} lesson ${at + 1} type`} className="w-28 shrink-0 sm:w-32">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {LESSON_TYPES.map((type) => (
                        <SelectItem key={type} value={type}>
                          {LESSON_TYPE_LABELS[type]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
              <Button
                variant="ghost"
                size="icon"
                className="size-8 shrink-0"
                aria-label={`Remove module ${n} lesson ${at + 1}`}
                onClick={() => lessons.remove(at)}
              >
                <X aria-hidden="true" />
              </Button>
            </div>
            <FieldError id={`outline-${index}-${at}-error`} message={errors?.lessons?.[at]?.title?.message} />
            <PlannedSources sources={planned[at]?.sources} label={`Sources of module ${n} lesson ${at + 1}`} grounded={grounded} />
          </li>
        ))}
      </ol>
      <FieldError id={`outline-module-${index}-lessons-error`} message={arrayError(errors?.lessons)} />
      <Button
        variant="ghost"
        size="sm"
        className="w-fit"
        // No `sources`: a lesson added here was never searched (the schema gives it [] when sent).
        onClick={() => lessons.append({ title: "", type: "reading", summary: "" })}
      >
        <Plus aria-hidden="true" />
        Add lesson
      </Button>
    </fieldset>
  );
}
