import { useState } from "react";
import type { LeaveRequest } from "../lib/unsaved-changes.js";
import { Button } from "./ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "./ui/dialog.js";
import { ButtonSpinner } from "./ui/spinner.js";

/**
 * The one question before unsaved changes are left (lib/unsaved-changes.ts): Save (where a save is possible),
 * Discard, or Keep editing. A save that fails closes the question and leaves the person on the form, which
 * shows why.
 */
export function UnsavedChangesDialog({ request }: { request: LeaveRequest }) {
  const [saving, setSaving] = useState(false);
  const { save } = request;
  const saveThenLeave = async () => {
    if (!save) return;
    setSaving(true);
    const saved = await save();
    setSaving(false);
    if (saved) request.proceed();
    else request.stay();
  };
  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && !saving && request.stay()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Unsaved changes</DialogTitle>
          <DialogDescription>
            {save
              ? "You have changes that are not saved yet. Save them before you go on, or discard them?"
              : "You have changes that are not saved yet. Discard them?"}
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={request.stay} disabled={saving}>
            Keep editing
          </Button>
          <Button variant={save ? "outline" : "destructive"} onClick={request.proceed} disabled={saving}>
            Discard
          </Button>
          {save ? (
            <Button onClick={() => void saveThenLeave()} disabled={saving}>
              {saving ? <ButtonSpinner /> : null}
              {saving ? "Saving..." : "Save"}
            </Button>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
