import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS, TOAST_LIMIT } from "../../../shared/constants.js";
import { useTheme } from "../../lib/theme.js";

/** At most one toast at a time, each shown for 5000 ms (spec 000 section 9). */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme}
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      position="bottom-right"
      richColors
      closeButton
      toastOptions={{ className: "text-sm" }}
    />
  );
}
