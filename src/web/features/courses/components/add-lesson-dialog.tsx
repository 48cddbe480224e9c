import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { quizEditPath } from "../../../lib/app-paths.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { LESSON_FIELDS, type LessonFormInput, type LessonFormOutput, lessonFormSchema, lessonFormValues } from "../lesson-form-values.js";
import { useAddLesson } from "../lesson-mutations.js";
import { LessonFields } from "./lesson-fields.js";

/** Add Lesson to a module: a reading lesson (title, type and content, by hand or by AI) or a quiz, whose editor opens next. */
export function AddLessonDialog({
  courseId,
  module,
  onClose,
}: {
  courseId: number;
  module: { id: number; title: string };
  onClose: () => void;
}) {
  const form = useForm<LessonFormInput, unknown, LessonFormOutput>({
    resolver: zodResolver(lessonFormSchema),
    defaultValues: lessonFormValues(),
  });
  const add = useAddLesson(courseId);
  const [, navigate] = useLocation();
  const persist = (body: LessonFormOutput) =>
    savedOrNot(
      add.mutateAsync(
        { moduleId: module.id, body },
        {
          onSuccess: (lesson) => {
            unsaved.saved();
            onClose();
            if (lesson.kind === "quiz") navigate(quizEditPath(courseId, lesson.id));
          },
          onError: (error) => applyServerFieldErrors(form.setError, error, LESSON_FIELDS),
        },
      ),
    );
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });
  return (
    <Dialog open onOpenChange={(open) => !open && !add.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add Lesson</DialogTitle>
          <DialogDescription>A new lesson at the end of “{module.title}”.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <LessonFields form={form} idPrefix="new-lesson" moduleId={module.id} chooseKind />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? <ButtonSpinner /> : null}
              {add.isPending ? "Adding..." : "Add Lesson"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
