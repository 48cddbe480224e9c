import { useQuery } from "@tanstack/react-query";
import { Plus, Sparkles } from "lucide-react";
import { useState } from "react";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { useLeaveScope } from "../../../lib/unsaved-changes.js";
import { generationQuery } from "../api.js";
import { useDeleteLesson } from "../lesson-mutations.js";
import { useDeleteModule } from "../module-mutations.js";
import { sortedModules } from "../use-course-outline.js";
import { AddLessonDialog } from "./add-lesson-dialog.js";
import { AddModuleDialog } from "./add-module-dialog.js";
import { COURSE_AI_LOCKED_NOTE_ID, LockedAiAction, useCanGenerate } from "./ai-button.js";
import { GenerateCourseDialog } from "./generate-course-dialog.js";
import { GenerationProgress } from "./generation-progress.js";
import { ModuleCard } from "./module-card.js";

type Named = { id: number; title: string };

/** Modules & Lessons: Generate with AI, Add Module, the modules in order, and their dialogs and confirmations. */
export function ModulesPanel({ outline }: { outline: CourseOutline }) {
  const courseId = outline.course.id;
  const modules = sortedModules(outline);
  const canGenerate = useCanGenerate();
  const running = useQuery(generationQuery(courseId)).data?.status === "running";
  const [editingLessonId, setEditingLessonId] = useState<number | null>(null);
  const lessonScope = useLeaveScope();
  const [dialog, setDialog] = useState<"module" | "generate" | null>(null);
  const [addingTo, setAddingTo] = useState<Named | null>(null);
  const [deletingModule, setDeletingModule] = useState<Named | null>(null);
  const [deletingLesson, setDeletingLesson] = useState<Named | null>(null);
  const removeModule = useDeleteModule(courseId);
  const removeLesson = useDeleteLesson(courseId);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Modules &amp; Lessons</h2>
        <div className="flex flex-wrap gap-2">
          {canGenerate ? (
            <Button variant="outline" onClick={() => setDialog("generate")} disabled={running}>
              <Sparkles aria-hidden="true" />
              Generate with AI
              <Badge variant="beta">BETA</Badge>
            </Button>
          ) : (
            <LockedAiAction
              label="Generate with AI"
              size="default"
              extra={<Badge variant="beta">BETA</Badge>}
              describedBy={COURSE_AI_LOCKED_NOTE_ID}
            />
          )}
          <Button onClick={() => setDialog("module")}>
            <Plus aria-hidden="true" />
            Add Module
          </Button>
        </div>
      </div>
      <GenerationProgress courseId={courseId} />
      {modules.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-sm text-muted-foreground">
            {canGenerate ? "No modules yet. Add one, or let AI propose an outline." : "No modules yet. Add one to start."}
          </CardContent>
        </Card>
      ) : (
        modules.map((module, index) => (
          <ModuleCard
            key={module.id}
            courseId={courseId}
            module={module}
            first={index === 0}
            last={index === modules.length - 1}
            editingLessonId={editingLessonId}
            lessonScope={lessonScope}
            onEditLesson={setEditingLessonId}
            onAddLesson={() => setAddingTo(module)}
            onDelete={() => setDeletingModule(module)}
            onDeleteLesson={setDeletingLesson}
          />
        ))
      )}
      {dialog === "module" ? <AddModuleDialog courseId={courseId} onClose={() => setDialog(null)} /> : null}
      {dialog === "generate" ? <GenerateCourseDialog courseId={courseId} onClose={() => setDialog(null)} /> : null}
      {addingTo ? <AddLessonDialog courseId={courseId} module={addingTo} onClose={() => setAddingTo(null)} /> : null}
      {deletingModule ? (
        <ConfirmDialog
          title={`Delete “${deletingModule.title}”?`}
          message="Are you sure you want to delete this module? All associated lessons will also be deleted."
          pending={removeModule.isPending}
          onClose={() => setDeletingModule(null)}
          onConfirm={() => removeModule.mutate(deletingModule.id, { onSuccess: () => setDeletingModule(null) })}
        />
      ) : null}
      {deletingLesson ? (
        <ConfirmDialog
          title={`Delete “${deletingLesson.title}”?`}
          message="Are you sure you want to delete this lesson?"
          pending={removeLesson.isPending}
          onClose={() => setDeletingLesson(null)}
          onConfirm={() =>
            removeLesson.mutate(deletingLesson.id, {
              onSuccess: () => {
                if (editingLessonId === deletingLesson.id) setEditingLessonId(null);
                setDeletingLesson(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
