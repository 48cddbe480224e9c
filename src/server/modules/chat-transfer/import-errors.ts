import type { z } from "zod";
import { AppError } from "../../lib/app-error.js";

/** `chats.3.messages.2.parentId` → `chats[3].messages[2].parentId`. */
function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    "",
  );
}

/** A file that does not fit its format: 400 naming the first few places and what is wrong there. */
export function invalidFile(what: string, error: z.ZodError): AppError {
  const issues = error.issues.slice(0, 3).map((issue) => `${where(issue.path) || "(the whole file)"}: ${issue.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more problems)` : "";
  const errors = Object.fromEntries(error.issues.slice(0, 20).map((issue) => [where(issue.path) || "file", issue.message]));
  return new AppError("BAD_REQUEST", `This is not a valid ${what}, so nothing was imported. ${issues.join("; ")}${more}.`, { errors });
}
