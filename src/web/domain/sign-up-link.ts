import { hasEarlyAccess } from "../../shared/plan.js";
import { earlyAccessCheckoutPath, paths } from "../lib/paths.js";
import { usePlatformSettings } from "./platform-settings.js";
import { useSignedInUser } from "./public-reads.js";

export interface CallToAction {
  href: string;
  label: string;
}

/** What a closed registration offers instead of signing up (issue 29, item 9). */
export const SIGN_IN_INSTEAD: CallToAction = { href: paths.login, label: "Sign in" };

/**
 * A visitor's way in: the Register tab, under `label`, while registration is open (Platform Settings); "Sign in"
 * once an admin closed it, so no button leads to a closed door. The prerendered pages get it from the variant of
 * the live switches (shared/prerender.ts), the app from the live settings.
 */
export function useSignUpLink(label: string): CallToAction {
  const { settings } = usePlatformSettings();
  return settings.allowRegistration ? { href: paths.register, label } : SIGN_IN_INSTEAD;
}

/**
 * A public page's call to action for whoever reads it: a visitor signs up (or in, see useSignUpLink), a free user
 * is offered the Early Access checkout (coming back to `from`), an Early Access user their dashboard.
 */
export function usePlanCallToAction(label: string, from: string): CallToAction {
  const user = useSignedInUser();
  const signUp = useSignUpLink(label);
  if (!user) return signUp;
  if (hasEarlyAccess(user)) return { href: paths.dashboard, label: "Go to Dashboard" };
  return { href: earlyAccessCheckoutPath(from), label: "Get Early Access" };
}
