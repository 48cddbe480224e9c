import { notify } from "../../lib/notify.js";
import { CARRIED_TOAST_KEY as KEY } from "./carry-toast.js";

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
