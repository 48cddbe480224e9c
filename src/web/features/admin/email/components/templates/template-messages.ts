import { isApiError } from "../../../../../lib/api-client.js";

/** The server's message, or "Failed to create/update/delete template". */
export function templateFailure(error: unknown, action: "create" | "update" | "delete"): string {
  if (isApiError(error) && typeof error.body.message === "string" && error.body.message) return error.body.message;
  return `Failed to ${action} template`;
}

/** A slug made from a name while the admin has not typed one: "Course Reminder!" → "course-reminder". */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}

/** Sample test data for a template's variables (platformName is always filled in by the server). */
export function sampleTestData(variables: string[]): string {
  const data: Record<string, string> = {};
  for (const name of variables) {
    if (name === "platformName") continue;
    data[name] = name === "name" ? "Test User" : /url|link/i.test(name) ? "https://example.com" : `Sample ${name}`;
  }
  return JSON.stringify(data, null, 2);
}
