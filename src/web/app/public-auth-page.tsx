import { type Dispatch, type SetStateAction, useMemo } from "react";
import { typedAddress } from "../../shared/contracts/endpoint.js";
import { firstScreenReads } from "../../shared/contracts/first-screen-reads.js";
import type { publicContentApi } from "../../shared/contracts/public-content.js";
import type { BootData } from "../../shared/prerender.js";
import { safeRedirectPath } from "../../shared/safe-redirect.js";
import { ToasterHost } from "../components/ui/toaster-host.js";
import { type AuthHost, AuthHostContext } from "../features/auth/auth-host.js";
import { carryToast } from "../features/auth/carry-toast.js";
import { AuthPage } from "../features/auth/pages/auth-page.js";
import { call } from "../lib/api-client.js";

const platformSettingsRead = typedAddress<typeof publicContentApi.platformSettings>(firstScreenReads.platformSettings);
const paymentSettingsRead = typedAddress<typeof publicContentApi.paymentSettings>(firstScreenReads.paymentSettings);

/**
 * /auth and /login in the visitors' small app (decision 017): the sign-in screens without React Query or zod
 * on the first screen. Signing in loads the signed-in app at ?next (same-site only) or `/`, which shows the
 * welcome toast; a setting the server says changed is read again into the page's values.
 */
export function PublicAuthPage({ setBoot }: { setBoot: Dispatch<SetStateAction<BootData>> }) {
  const host = useMemo<AuthHost>(
    () => ({
      signedIn(_user, welcome) {
        carryToast(welcome.title, welcome.description);
        const next = new URLSearchParams(window.location.search).get("next");
        window.location.assign(safeRedirectPath(next, "/"));
      },
      settingsChanged(which) {
        const read =
          which === "platform"
            ? call(platformSettingsRead, {}).then((platformSettings) => setBoot((old) => ({ ...old, platformSettings })))
            : call(paymentSettingsRead, {}).then((paymentSettings) => setBoot((old) => ({ ...old, paymentSettings })));
        read.catch(() => undefined); // the form already said what failed; the old values stay
      },
      // The small app has no such page: one load from the server (not a route change, then a reload).
      open(path) {
        window.location.assign(path);
      },
    }),
    [setBoot],
  );
  return (
    <AuthHostContext value={host}>
      <AuthPage />
      {/* Here, not in the public app: the prerendered pages raise no toasts, and this page is never prerendered. */}
      <ToasterHost />
    </AuthHostContext>
  );
}
