import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { useLeaveScope } from "../../../lib/unsaved-changes.js";
import { useAddModule } from "../module-mutations.js";
import { ModuleForm } from "./module-form.js";

/** Add Module: appended after the course's last module. */
export function AddModuleDialog({ courseId, onClose }: { courseId: number; onClose: () => void }) {
  const add = useAddModule(courseId);
  const formScope = useLeaveScope();
  return (
    <Dialog open onOpenChange={(open) => !open && !add.isPending && formScope.confirmLeave(onClose)}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Add Module</DialogTitle>
          <DialogDescription>A new module at the end of the course.</DialogDescription>
        </DialogHeader>
        <ModuleForm
          idPrefix="new-module"
          submitLabel="Add Module"
          pendingLabel="Adding..."
          pending={add.isPending}
          onCancel={onClose}
          scope={formScope}
          onSubmit={(body) => add.mutateAsync(body, { onSuccess: onClose })}
        />
      </DialogContent>
    </Dialog>
  );
}
