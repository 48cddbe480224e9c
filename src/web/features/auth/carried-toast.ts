import { notify } from "../../lib/notify.js";

/** sessionStorage key of a toast raised just before the page loads another app (decision 017). */
const KEY = "carried-toast";

/** Keeps a success toast for the next page of this tab: the small sign-in app hands over to the signed-in app. */
export function carryToast(title: string, description: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ title, description }));
  } catch {
    // Storage refused (private mode, quota): the person is signed in all the same, without the toast.
  }
}

/** Shows (once) the toast the page before left. */
export function showCarriedToast(): void {
  let carried: unknown = null;
  try {
    carried = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (carried && typeof carried === "object" && "title" in carried && typeof carried.title === "string") {
    const description = "description" in carried && typeof carried.description === "string" ? carried.description : undefined;
    notify.success(carried.title, description);
  }
}
