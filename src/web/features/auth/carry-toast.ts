/** sessionStorage key of a toast raised just before the page loads another app (decision 017). */
export const CARRIED_TOAST_KEY = "carried-toast";

/**
 * Keeps a success toast for the next page of this tab: the small sign-in app hands over to the signed-in app. Apart from
 * `showCarriedToast`, so the sign-in page's first screen does not load the toasts' code to write one down.
 */
export function carryToast(title: string, description: string): void {
  try {
    sessionStorage.setItem(CARRIED_TOAST_KEY, JSON.stringify({ title, description }));
  } catch {
    // Storage refused (private mode, quota): the person is signed in all the same, without the toast.
  }
}
