import { lazy, Suspense } from "react";
import { useLeaveRequest } from "../lib/unsaved-changes.js";

const UnsavedChangesDialog = lazy(() => import("./unsaved-changes-dialog.js").then((m) => ({ default: m.UnsavedChangesDialog })));

/** Shows the unsaved-changes question while one is open (its code loads the first time). */
export function UnsavedChangesHost() {
  const request = useLeaveRequest();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <UnsavedChangesDialog key={request.id} request={request} />
    </Suspense>
  );
}
