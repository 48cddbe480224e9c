import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { isApiError } from "./api-client.js";

/**
 * Puts the server's field errors (`errors: { field: message }`) under the
 * matching fields of a form. Returns the fields that got one.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
): Path<T>[] {
  if (!isApiError(error)) return [];
  const sent = error.fieldErrors;
  const hit = fields.filter((field) => typeof sent[field] === "string");
  for (const field of hit) setError(field, { type: "server", message: sent[field] });
  return hit;
}
