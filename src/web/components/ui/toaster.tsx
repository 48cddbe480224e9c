import { useSyncExternalStore } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS, TOAST_LIMIT } from "../../../shared/constants.js";
import { useTheme } from "../../lib/theme.js";

/** Phones: toasts sit at the top, above the composer and its Send button (issue 29). */
const PHONE_QUERY = "(max-width: 767px)";

/**
 * At most one toast at a time, each shown for 5000 ms (spec 000 section 9), where it covers no control: top-right
 * on a wide screen (below the header's row of controls), top-centre on a phone, above the chat's composer
 * (issue 29: at the bottom they sat over Send for 5 s).
 */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  const phone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
  return (
    <Sonner
      theme={resolvedTheme}
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      position={phone ? "top-center" : "top-right"}
      offset={{ top: 72, right: 24 }}
      mobileOffset={{ top: 72, left: 16, right: 16 }}
      richColors
      closeButton
      toastOptions={{ className: "text-sm" }}
    />
  );
}

function subscribePhone(change: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", change);
  return () => query.removeEventListener("change", change);
}
