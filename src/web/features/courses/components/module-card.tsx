import { Plus } from "lucide-react";
import { useState } from "react";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { ItemActions } from "../../../components/item-actions.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.js";
import type { LeaveScope } from "../../../lib/unsaved-changes.js";
import { useMoveLesson } from "../lesson-mutations.js";
import { useMoveModule, useUpdateModule } from "../module-mutations.js";
import { LessonEditor } from "./lesson-editor.js";
import { LessonRow } from "./lesson-row.js";
import { ModuleForm } from "./module-form.js";

type OutlineModule = CourseOutline["modules"][number];
type OutlineLesson = OutlineModule["lessons"][number];

type Props = {
  courseId: number;
  module: OutlineModule;
  first: boolean;
  last: boolean;
  editingLessonId: number | null;
  /** Where a lesson is edited: opening another one asks first about unsaved changes. */
  lessonScope: LeaveScope;
  onEditLesson: (id: number | null) => void;
  onAddLesson: () => void;
  onDelete: () => void;
  onDeleteLesson: (lesson: OutlineLesson) => void;
};

/** One module in the editor: its title and description (editable in place), its lessons, and the module's actions. */
export function ModuleCard({
  courseId,
  module,
  first,
  last,
  editingLessonId,
  lessonScope,
  onEditLesson,
  onAddLesson,
  onDelete,
  onDeleteLesson,
}: Props) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateModule(courseId);
  const moveModule = useMoveModule(courseId);
  const moveLesson = useMoveLesson(courseId);
  const titleId = `module-${module.id}-title`;
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="gap-3 pb-4">
        <div className="flex flex-wrap items-start gap-2">
          <div className="grid min-w-0 flex-1 basis-48 gap-1">
            <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Module {module.order}</p>
            <h3 id={titleId} className="text-lg leading-tight font-semibold break-words">
              {module.title}
            </h3>
            {module.description && !editing ? <p className="text-sm break-words text-muted-foreground">{module.description}</p> : null}
          </div>
          <ItemActions
            name={module.title}
            label={`module ${module.title}`}
            first={first}
            last={last}
            busy={moveModule.isPending}
            onMove={(direction) => moveModule.mutate({ id: module.id, direction })}
            onEdit={() => setEditing(true)}
            onDelete={onDelete}
          />
        </div>
        {editing ? (
          <div className="rounded-lg border border-primary/40 bg-muted/30 p-4">
            <ModuleForm
              idPrefix={`edit-module-${module.id}`}
              initial={{ title: module.title, description: module.description, releaseAfterDays: module.releaseAfterDays }}
              submitLabel="Save Module"
              pendingLabel="Saving..."
              pending={update.isPending}
              onCancel={() => setEditing(false)}
              onSubmit={(body) => update.mutateAsync({ id: module.id, body }, { onSuccess: () => setEditing(false) })}
            />
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-2">
        {module.lessons.length === 0 ? <p className="text-sm text-muted-foreground">No lessons yet.</p> : null}
        {module.lessons.map((lesson, index) =>
          editingLessonId === lesson.id ? (
            <LessonEditor key={lesson.id} courseId={courseId} lessonId={lesson.id} scope={lessonScope} onDone={() => onEditLesson(null)} />
          ) : (
            <LessonRow
              key={lesson.id}
              lesson={lesson}
              first={index === 0}
              last={index === module.lessons.length - 1}
              busy={moveLesson.isPending}
              onMove={(direction) => moveLesson.mutate({ id: lesson.id, direction })}
              onEdit={() => lessonScope.confirmLeave(() => onEditLesson(lesson.id))}
              onDelete={() => onDeleteLesson(lesson)}
            />
          ),
        )}
        <Button variant="outline" size="sm" className="mt-1 w-fit" onClick={onAddLesson}>
          <Plus aria-hidden="true" />
          Add Lesson
        </Button>
      </CardContent>
    </Card>
  );
}
