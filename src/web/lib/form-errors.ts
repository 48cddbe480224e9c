import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "./api-client.js";

/**
 * Puts the server's field errors (`errors: { field: message }`) under the
 * matching fields of a form, and moves focus to the first of them (so a field
 * scrolled out of view is brought back to it). Returns the fields that got one.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
): Path<T>[] {
  if (!isApiError(error)) return [];
  const sent = error.fieldErrors;
  const hit = fields.filter((field) => typeof sent[field] === "string");
  for (const [i, field] of hit.entries()) setError(field, { type: "server", message: sent[field] }, { shouldFocus: i === 0 });
  return hit;
}
