import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowRight, Library, Lock } from "lucide-react";
import { Controller, useForm } from "react-hook-form";
import { useLocation } from "wouter";
import type { z } from "zod";
import { createCourseBodySchema } from "../../../../shared/contracts/courses.js";
import { NO_HINTS } from "../../../../shared/contracts/fields.js";
import { PLAN_REFUSALS } from "../../../../shared/plan.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { FieldError, TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { courseEditPath } from "../../../lib/paths.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useDescribeCourse } from "../ai-mutations.js";
import { useCreateCourse } from "../course-mutations.js";
import { AiButton, CourseAiLockedNote, useCanGenerate } from "./ai-button.js";

/**
 * "From my material": a course the AI writes, so on a plan without course generation it shows the lock where it is
 * chosen, not two steps in (decision 060), described by the dialog's note (the plan it needs, Get Early Access).
 */
function FromMaterialButton({ locked, disabled, onClick }: { locked: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled || locked}
      aria-describedby={locked ? "new-course-ai-locked" : undefined}
      title={locked ? PLAN_REFUSALS.courseGeneration : undefined}
      data-locked-ai={locked ? "" : undefined}
      className="flex items-center gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3 text-left outline-none hover:bg-primary/10 focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
    >
      <Library className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="text-sm font-semibold">From my material</span>
        <span className="text-xs text-muted-foreground">
          {locked
            ? "Early Access: build a course from your files, a collection or a chat."
            : "Build it from your files, a collection or a chat; every lesson lists its sources."}
        </span>
      </span>
      {locked ? (
        <Lock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      ) : (
        <ArrowRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
    </button>
  );
}

type Input = z.input<typeof createCourseBodySchema>;
type Output = z.output<typeof createCourseBodySchema>;

/** New Course: title, description (or one written by AI), public or private; then the editor opens. Or "From my material". */
export function NewCourseDialog({ onClose, onFromMaterial }: { onClose: () => void; onFromMaterial: () => void }) {
  const [, navigate] = useLocation();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(createCourseBodySchema),
    defaultValues: { title: "", description: "", isPublic: false, status: "draft" },
  });
  const { errors } = form.formState;
  const create = useCreateCourse();
  const describe = useDescribeCourse();
  const canGenerate = useCanGenerate();

  const onDescribe = () => {
    const title = form.getValues("title").trim();
    if (!title) {
      form.setError("title", { type: "manual", message: "Please enter a title first." });
      notify.error("Error generating description", "Please enter a title first.");
      return;
    }
    describe.mutate(
      { title, hints: NO_HINTS },
      { onSuccess: ({ description }) => form.setValue("description", description, { shouldDirty: true, shouldValidate: true }) },
    );
  };

  const persist = (body: Output) =>
    savedOrNot(
      create.mutateAsync(body, {
        onSuccess: (course) => {
          // Made: nothing is unsaved any more, so opening its editor does not ask.
          unsaved.saved();
          navigate(courseEditPath(course.id));
        },
        onError: (error) => applyServerFieldErrors(form.setError, error, ["title", "description"]),
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !create.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>New Course</DialogTitle>
          <DialogDescription>
            Start with a title and a description. New courses are private drafts until you publish them.
          </DialogDescription>
        </DialogHeader>
        <FromMaterialButton locked={!canGenerate} disabled={create.isPending} onClick={() => unsaved.confirmLeave(onFromMaterial)} />
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField id="new-course-title" label="Title" autoComplete="off" error={errors.title?.message} {...form.register("title")} />
          <div className="grid gap-2">
            <div className="flex items-end justify-between gap-2">
              <Label htmlFor="new-course-description">Description</Label>
              <AiButton pending={describe.isPending} onClick={onDescribe} lockedNoteId="new-course-ai-locked" />
            </div>
            <Textarea
              id="new-course-description"
              rows={5}
              placeholder="What will people learn?"
              aria-invalid={errors.description ? true : undefined}
              {...form.register("description")}
            />
            <FieldError id="new-course-description-error" message={errors.description?.message} />
            <CourseAiLockedNote id="new-course-ai-locked" />
          </div>
          <Controller
            control={form.control}
            name="isPublic"
            render={({ field }) => (
              <SwitchField
                label="Public course"
                description="When published, every signed-in user can read it."
                checked={field.value ?? false}
                onChange={field.onChange}
              />
            )}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? <ButtonSpinner /> : null}
              {create.isPending ? "Creating..." : "Create Course"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
