import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "../../../../../lib/api-client.js";
import { formFieldOf } from "./platform-form-schema.js";

/**
 * Puts the server's field errors under the form's fields. The server names
 * nested fields "settings.temperature", "settings.models.0"...; the form has
 * temperature and modelsText. A 409 (slug taken) goes under the slug. The first
 * field with an error takes the focus (it may be scrolled out of view).
 */
export function applyPlatformErrors<T extends FieldValues>(setError: UseFormSetError<T>, error: unknown, fields: readonly string[]): void {
  if (!isApiError(error)) return;
  if (error.status === 409 && fields.includes("slug")) {
    setError("slug" as Path<T>, { type: "server", message: error.message }, { shouldFocus: true });
    return;
  }
  let focused = false;
  for (const [serverField, message] of Object.entries(error.fieldErrors)) {
    const field = formFieldOf(serverField);
    if (!fields.includes(field)) continue;
    setError(field as Path<T>, { type: "server", message }, { shouldFocus: !focused });
    focused = true;
  }
}
