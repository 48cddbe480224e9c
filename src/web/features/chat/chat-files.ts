import { ATTACHMENTS } from "../../../shared/constants.js";
import { MESSAGE_FILES_MAX } from "../../../shared/contracts/chat.js";
import type { KnowledgeFile } from "../../../shared/contracts/knowledge.js";

/** What the composer takes (issue 30): documents, text and source code, and images. The server checks the bytes again. */
export const IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg", ".webp", ".gif"] as const;
export const CHAT_FILE_EXTENSIONS: readonly string[] = [...ATTACHMENTS.extensions, ".pdf", ".docx", ".htm", ...IMAGE_EXTENSIONS];
/** The plans' largest file by default (the server answers with the plan's own limit when it is lower). */
export const CHAT_FILE_MAX_BYTES = 50 * 1024 * 1024;
export const CHAT_FILES_MAX = MESSAGE_FILES_MAX;

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot === -1 ? "" : name.slice(dot).toLowerCase();
};

/** An image by its type or, for a pasted file with none, its name. */
export function isImageFile(file: { name: string; type: string }): boolean {
  return file.type.startsWith("image/") || (IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name));
}

/** Why a file cannot be attached, or null. */
export function refusalOf(file: { name: string; size: number; type: string }): string | null {
  const known = CHAT_FILE_EXTENSIONS.includes(extensionOf(file.name)) || /^image\/(png|jpeg|webp|gif)$/.test(file.type);
  if (!known) return `${file.name} is not a supported file (documents, text, code and PNG, JPEG, WebP or GIF images).`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > CHAT_FILE_MAX_BYTES) return `${file.name} is larger than ${CHAT_FILE_MAX_BYTES / (1024 * 1024)} MB.`;
  return null;
}

/** A pasted image often comes named "image.png", or with no name: give it one that says what it is. */
export function namePasted(file: File, index: number): File {
  if (file.name && file.name !== "image.png") return file;
  const extension = file.type.split("/")[1]?.replace("jpeg", "jpg") ?? "png";
  return new File([file], `pasted-image-${index + 1}.${extension}`, { type: file.type, lastModified: file.lastModified });
}

export type ChipPhase = "uploading" | "queued" | "reading" | "indexing" | "ready" | "failed";

/** Where a library file's reading stands, as the chip says it. */
export function phaseOf(file: KnowledgeFile): ChipPhase {
  if (file.status === "ready") return "ready";
  if (file.status === "failed") return "failed";
  if (file.status === "queued") return "queued";
  return file.stage === "indexing" ? "indexing" : "reading";
}

/** The chip's words for its state. */
export function phaseText(chip: { phase: ChipPhase; progress: number; done: number; total: number; error: string | null }): string {
  switch (chip.phase) {
    case "uploading":
      return `Uploading ${Math.round(chip.progress * 100)}%`;
    case "queued":
    case "reading":
      return "Reading…";
    case "indexing":
      return chip.total > 0 ? `Indexing ${chip.done} of ${chip.total}` : "Indexing…";
    case "ready":
      return "Ready";
    case "failed":
      return chip.error ? `Failed: ${chip.error}` : "Failed";
  }
}
