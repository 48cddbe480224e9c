import { lazy, Suspense } from "react";
import { useToasterWanted } from "../../lib/notify.js";

const Toaster = lazy(() => import("./toaster.js").then((m) => ({ default: m.Toaster })));

/** Mounts the (lazily loaded) Toaster once the first toast is raised. */
export function ToasterHost() {
  const wanted = useToasterWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
