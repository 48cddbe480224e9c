import { AppError } from "../../../lib/app-error.js";

/** The statuses a file that cannot be read answers with: damaged or hostile (422), too large (413), not a kind we read (415). */
export type ReadingErrorCode = "UNPROCESSABLE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE";

/**
 * A file that cannot be read, for a reason the user can act on: its message is a sentence for them ("This PDF has
 * more than 2,000 pages."). It is an `AppError`, so a service that lets it through answers a 4xx, never a 500; an
 * ingestion job stores its message as the file's failure.
 */
export class ReadingError extends AppError {
  constructor(message: string, code: ReadingErrorCode = "UNPROCESSABLE") {
    super(code, message);
    this.name = "ReadingError";
  }
}

export const UNREADABLE_MESSAGE = "This file could not be read: it may be damaged or protected by a password.";
export const TOO_SLOW_MESSAGE = "This file took too long to read. Split it into smaller files and attach each.";
export const TOO_MUCH_MEMORY_MESSAGE = "This file needs too much memory to read. Split it into smaller files and attach each.";
export const DOCX_TOO_LARGE_MESSAGE = "This Word document is too large once unpacked.";
export const DOCX_TOO_MANY_PARTS_MESSAGE = "This Word document has too many parts to read.";

export function tooManyPagesMessage(maxPages: number): string {
  return `This PDF has more than ${maxPages.toLocaleString("en-US")} pages.`;
}
export function tooMuchTextMessage(maxChars: number): string {
  return `This file holds more text than can be read (over ${maxChars.toLocaleString("en-US")} characters). Split it into smaller files.`;
}
