import { useQuery } from "@tanstack/react-query";
import { ArrowRight, Sparkles } from "lucide-react";
import { useState } from "react";
import { useLocation } from "wouter";
import { type CourseSources, type OutlineProposal, SOURCES_REQUIRED } from "../../../../shared/contracts/courses.js";
import { NO_HINTS } from "../../../../shared/contracts/fields.js";
import type { KnowledgeFile } from "../../../../shared/contracts/knowledge.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { courseEditPath } from "../../../lib/paths.js";
import { useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useApproveMaterialOutline, useMaterialOutline } from "../ai-mutations.js";
import { isSettled, materialFilesQuery } from "../material-api.js";
import { useMaterialUploads } from "../use-material-uploads.js";
import { CourseAiLockedNote } from "./ai-button.js";
import { FailureAlert } from "./failure-alert.js";
import { detailsErrors, type MaterialDetails, MaterialDetailsFields } from "./material-details.js";
import { type MaterialChoice, MaterialPicker } from "./material-picker.js";
import { MaterialSourceSummary } from "./material-source-summary.js";
import { OutlineReview } from "./outline-review.js";

type Step = "material" | "details" | "review";
const STEP_TITLES: Record<Step, string> = {
  material: "From my material",
  details: "About the course",
  review: "Review the outline",
};
const STEP_TEXT: Record<Step, string> = {
  material: "Step 1 of 3: choose what the course is built from. Files you upload here go to your library.",
  details: "Step 2 of 3: the course's title and who it is for. The outline is drawn from your material.",
  review: "Step 3 of 3: each lesson lists the passages it draws on. Edit the outline; nothing is written until you approve.",
};

/** Why Next is off, in words (null: the material can be used). */
function materialBlocker(choice: MaterialChoice, uploading: boolean, files: KnowledgeFile[] | undefined): string | null {
  if (uploading) return "Waiting for uploads to finish…";
  if (choice.fileIds.length === 0 && choice.collectionId === null) return SOURCES_REQUIRED;
  const chosen = (files ?? []).filter((file) => choice.fileIds.includes(file.id));
  if (chosen.some((file) => file.status === "failed")) return "Untick the files that could not be read, or retry them in your library.";
  if (chosen.some((file) => !isSettled(file)) || chosen.length < choice.fileIds.length) return "Waiting for files to be read…";
  return null;
}

/**
 * New Course → "From my material" (issue 31): the material (library files and/or a collection, new uploads, or the
 * chat or folder given), then the generation fields, then the outline with its sources; approving opens the editor,
 * where the lessons are written live. The course is made (a private draft) only when the outline is approved, so a
 * refused step, a failure or a closed tab leaves nothing (decision 059). Unsaved work asks first (decision 031).
 */
export function MaterialCourseDialog({ from, onClose }: { from: Pick<CourseSources, "chatId" | "folderId">; onClose: () => void }) {
  const [, navigate] = useLocation();
  const fixed = from.chatId || from.folderId ? from : null;
  const [step, setStep] = useState<Step>(fixed ? "details" : "material");
  const [choice, setChoice] = useState<MaterialChoice>({ fileIds: [], collectionId: null });
  const [details, setDetails] = useState<MaterialDetails>({ title: "", moduleCount: "4", hints: { ...NO_HINTS } });
  const [tried, setTried] = useState(false);
  const [proposal, setProposal] = useState<OutlineProposal | null>(null);
  const files = useQuery({ ...materialFilesQuery(), enabled: !fixed });
  const uploads = useMaterialUploads((id) => setChoice((now) => ({ ...now, fileIds: [...now.fileIds, id] })));
  const outline = useMaterialOutline();
  const approve = useApproveMaterialOutline();
  const pending = outline.isPending || approve.isPending;

  const sources: CourseSources = fixed
    ? fixed
    : {
        ...(choice.fileIds.length ? { fileIds: choice.fileIds } : {}),
        ...(choice.collectionId ? { collectionId: choice.collectionId } : {}),
      };
  const blocker = fixed ? null : materialBlocker(choice, uploads.uploading, files.data?.items);

  const dirty = Boolean(fixed) || step !== "material" || choice.fileIds.length > 0 || choice.collectionId !== null;
  const unsaved = useUnsavedChanges({ dirty });

  const askOutline = () => {
    setTried(true);
    const errors = detailsErrors(details);
    if (errors.title || errors.moduleCount) return;
    outline.mutate(
      { title: details.title.trim(), hints: details.hints, moduleCount: Number(details.moduleCount), sources },
      {
        onSuccess: (made) => {
          approve.reset();
          setProposal(made);
          setStep("review");
        },
      },
    );
  };

  const back = () => setStep(step === "review" ? "details" : "material");

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className={step === "review" ? "max-w-3xl" : "max-w-2xl"} data-testid="material-dialog">
        <DialogHeader>
          <DialogTitle>{STEP_TITLES[step]}</DialogTitle>
          <DialogDescription>{STEP_TEXT[step]}</DialogDescription>
        </DialogHeader>
        {step === "material" ? (
          <>
            <MaterialPicker
              choice={choice}
              onChange={setChoice}
              uploads={uploads.uploads}
              onUpload={uploads.add}
              onDismissUpload={uploads.dismiss}
            />
            <div className="flex flex-wrap items-center justify-end gap-2">
              {blocker ? (
                <p role="status" className="mr-auto text-sm text-muted-foreground">
                  {blocker}
                </p>
              ) : null}
              <Button variant="outline" onClick={() => unsaved.confirmLeave(onClose)}>
                Cancel
              </Button>
              <Button disabled={blocker !== null} onClick={() => setStep("details")}>
                Next
                <ArrowRight aria-hidden="true" />
              </Button>
            </div>
          </>
        ) : step === "details" ? (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              askOutline();
            }}
          >
            <CourseAiLockedNote />
            {fixed ? <MaterialSourceSummary sources={fixed} /> : null}
            <MaterialDetailsFields details={details} onChange={setDetails} showErrors={tried} />
            {outline.isPending ? (
              <div role="status" className="flex items-center gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3 text-sm">
                <Spinner className="size-4" label="Drafting the outline" />
                <span>Reading your material and drafting the outline… This can take a minute.</span>
              </div>
            ) : outline.isError ? (
              <FailureAlert
                title="The outline could not be drafted"
                error={outline.error}
                fallback={fixed ? "Try again in a moment." : "Try again in a moment, or go back and choose other material."}
              />
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              {fixed ? (
                <Button variant="outline" onClick={() => unsaved.confirmLeave(onClose)} disabled={pending}>
                  Cancel
                </Button>
              ) : (
                <Button variant="outline" onClick={back} disabled={pending}>
                  Back
                </Button>
              )}
              <Button type="submit" disabled={pending}>
                {outline.isPending ? <ButtonSpinner /> : <Sparkles aria-hidden="true" />}
                {outline.isPending ? "Drafting..." : "Draft the outline"}
              </Button>
            </div>
          </form>
        ) : proposal ? (
          <OutlineReview
            fresh
            grounded
            proposal={proposal}
            pending={approve.isPending}
            failure={
              approve.isError ? (
                <FailureAlert title="The course could not be created" error={approve.error} fallback="Try again in a moment." />
              ) : null
            }
            onBack={back}
            onApprove={(reviewed) =>
              approve.mutate(
                { title: details.title.trim(), outline: reviewed, hints: details.hints, sources },
                {
                  onSuccess: (run) => {
                    // The course now exists: the editor shows its lessons being written.
                    unsaved.saved();
                    navigate(courseEditPath(run.courseId));
                  },
                },
              )
            }
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
