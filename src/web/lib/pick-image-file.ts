import type { ChangeEvent } from "react";
import { AVATAR_MAX_BYTES, IMAGE_MIME_TYPES } from "../../shared/constants.js";

/**
 * The image chosen in a file input, checked the way the server will check it
 * (PNG, JPEG or WebP, at most 2 MB), so the person learns at once. The input is
 * cleared so the same file can be chosen again. Returns the file, or null after
 * calling `onProblem` with what to do.
 */
export function pickImageFile(event: ChangeEvent<HTMLInputElement>, onProblem: (message: string) => void, noun = "image"): File | null {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return null;
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    onProblem("Choose a PNG, JPEG or WebP image.");
    return null;
  }
  if (file.size > AVATAR_MAX_BYTES) {
    onProblem(`The ${noun} is larger than 2 MB. Please choose a smaller one.`);
    return null;
  }
  return file;
}

/** The `accept` attribute for image inputs. */
export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(",");
