import { useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useState } from "react";
import type { OutlineProposal } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { notify } from "../../../lib/notify.js";
import { useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useApproveOutline, useProposeOutline } from "../ai-mutations.js";
import { refreshCourse } from "../api.js";
import { LEVEL_LABELS, useTrainingHints } from "../training-hints.js";
import { CourseAiLockedNote } from "./ai-button.js";
import { FailureAlert } from "./failure-alert.js";
import { ModuleCountField } from "./hint-fields.js";
import { OutlineReview } from "./outline-review.js";

const DEFAULT_MODULE_COUNT = "4";

/**
 * Generate with AI: ask for an outline, review and edit it, then approve; the lessons are written afterwards.
 * A changed module count or an outline not yet approved is unsaved work: closing the dialog or leaving the page
 * asks first (there is nothing to save from the question: approving is a choice made on the outline).
 */
export function GenerateCourseDialog({ courseId, onClose }: { courseId: number; onClose: () => void }) {
  const client = useQueryClient();
  const hints = useTrainingHints();
  const [moduleCount, setModuleCount] = useState(DEFAULT_MODULE_COUNT);
  const [proposal, setProposal] = useState<OutlineProposal | null>(null);
  const propose = useProposeOutline(courseId);
  const approve = useApproveOutline(courseId);
  const count = Number(moduleCount);
  const countError = Number.isInteger(count) && count >= 1 && count <= 12 ? undefined : "Choose between 1 and 12 modules";
  const pending = propose.isPending || approve.isPending;
  const audience = hints.audience.trim() ? ` for ${hints.audience.trim()}` : "";

  const unsaved = useUnsavedChanges({ dirty: proposal !== null || moduleCount !== DEFAULT_MODULE_COUNT });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{proposal ? "Review the outline" : "Generate with AI"}</DialogTitle>
          <DialogDescription>
            {proposal
              ? "Edit titles, remove or add modules and lessons. Nothing is created until you approve."
              : `An outline of modules and lessons (${LEVEL_LABELS[hints.level]}${audience}), from the course details and your Course Training hints.`}
          </DialogDescription>
        </DialogHeader>
        {proposal ? (
          <OutlineReview
            proposal={proposal}
            pending={approve.isPending}
            failure={
              approve.isError ? (
                <FailureAlert title="The outline could not be created" error={approve.error} fallback="Try again in a moment." />
              ) : null
            }
            onBack={() => setProposal(null)}
            onApprove={(outline) =>
              approve.mutate(
                { outline, hints },
                {
                  onSuccess: (run) => {
                    if (run.status === "done") {
                      notify.success("Course Content Generated");
                      void refreshCourse(client, courseId);
                    }
                    onClose();
                  },
                },
              )
            }
          />
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!countError)
                propose.mutate(
                  { hints, moduleCount: count },
                  {
                    onSuccess: (made) => {
                      approve.reset();
                      setProposal(made);
                    },
                  },
                );
            }}
          >
            <CourseAiLockedNote />
            <ModuleCountField id="outline-module-count" value={moduleCount} error={countError} onChange={setModuleCount} />
            {propose.isError ? (
              <FailureAlert title="The outline could not be drafted" error={propose.error} fallback="Try again in a moment." />
            ) : null}
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={onClose} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending || Boolean(countError)}>
                {propose.isPending ? <ButtonSpinner /> : <Sparkles aria-hidden="true" />}
                {propose.isPending ? "Generating..." : "Generate Outline"}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
