import { useSyncExternalStore } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS, TOAST_LIMIT } from "../../../shared/constants.js";
import { useTheme } from "../../lib/theme.js";

/** Phones: toasts sit at the bottom, above the chat's composer and its Send button (issue 29). */
const PHONE_QUERY = "(max-width: 767px)";

/**
 * At most one toast at a time, each shown for 5000 ms (docs/product.md, Defaults and constants), where it covers no control: top-right
 * on a wide screen (below the header's row of controls); on a phone at the bottom, above the chat's composer where
 * there is one (`--toast-clearance`, lib/toast-clearance.ts; issue 29: they sat over Send for 5 s).
 */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  const phone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
  return (
    <Sonner
      theme={resolvedTheme}
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      position={phone ? "bottom-center" : "top-right"}
      offset={{ top: 72, right: 24 }}
      mobileOffset={{ bottom: "calc(var(--toast-clearance, 0px) + 12px)", left: 16, right: 16 }}
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
