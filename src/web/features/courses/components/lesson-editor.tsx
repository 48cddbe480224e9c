import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { Lesson } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { type LeaveScope, savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { lessonQuery } from "../api.js";
import { toastFailure } from "../course-toasts.js";
import { LESSON_FIELDS, type LessonFormInput, type LessonFormOutput, lessonFormSchema, lessonFormValues } from "../lesson-form-values.js";
import { useUpdateLesson } from "../lesson-mutations.js";
import { LessonFields } from "./lesson-fields.js";
import { LessonVersions } from "./lesson-versions.js";
import { RegenerateLesson } from "./regenerate-lesson.js";

/** `scope`: the lesson editor's place in the page; opening another lesson there asks first about this one's changes. */
type Props = { courseId: number; lessonId: number; scope: LeaveScope; onDone: () => void };

/** Inline editing of one lesson (only one at a time): its full content is read first. */
export function LessonEditor(props: Props) {
  const lesson = useQuery(lessonQuery(props.lessonId));
  useEffect(() => {
    if (lesson.error) toastFailure("loadLesson", lesson.error);
  }, [lesson.error]);
  if (lesson.data) return <LessonEditForm {...props} lesson={lesson.data} />;
  return (
    <div className="flex items-center gap-2 rounded-lg border p-4 text-sm text-muted-foreground">
      {lesson.isError ? (
        <>
          <span className="text-destructive">{errorMessage(lesson.error)}</span>
          <Button variant="outline" size="sm" onClick={props.onDone}>
            Cancel
          </Button>
        </>
      ) : (
        <>
          <Spinner label="Loading lesson..." />
          <span aria-hidden="true">Loading lesson...</span>
        </>
      )}
    </div>
  );
}

function LessonEditForm({ courseId, lesson, scope, onDone }: Props & { lesson: Lesson }) {
  const form = useForm<LessonFormInput, unknown, LessonFormOutput>({
    resolver: zodResolver(lessonFormSchema),
    defaultValues: lessonFormValues(lesson),
  });
  const update = useUpdateLesson(courseId);
  const persist = (body: LessonFormOutput) =>
    savedOrNot(
      update.mutateAsync(
        { id: lesson.id, body },
        { onSuccess: onDone, onError: (error) => applyServerFieldErrors(form.setError, error, LESSON_FIELDS) },
      ),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist), scope });
  return (
    <form
      noValidate
      aria-label={`Edit lesson ${lesson.title}`}
      className="grid gap-4 rounded-lg border border-primary/40 bg-muted/30 p-4"
      onSubmit={onSubmit}
    >
      <LessonFields form={form} idPrefix={`lesson-${lesson.id}`} moduleId={lesson.moduleId} />
      {lesson.sources.length > 0 || lesson.withoutSource ? (
        <RegenerateLesson
          courseId={courseId}
          lesson={lesson}
          dirty={form.formState.isDirty}
          onRegenerated={(updated) => form.reset(lessonFormValues(updated))}
        />
      ) : null}
      <LessonVersions courseId={courseId} lessonId={lesson.id} onRestored={(restored) => form.reset(lessonFormValues(restored))} />
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <ButtonSpinner /> : null}
          {update.isPending ? "Saving..." : "Save Lesson"}
        </Button>
      </div>
    </form>
  );
}
