import type { z } from "zod";
import type { AdminVideo, videoBodySchema } from "../../../../../../shared/contracts/admin-videos.js";

export type VideoFormInput = z.input<typeof videoBodySchema>;
export type VideoFormOutput = z.output<typeof videoBodySchema>;

/** The form fields, in the order the server's errors are placed under them. */
export const VIDEO_FIELDS = ["title", "subtitle", "description", "embedUrl", "order", "isActive"] as const;

/** What is typed in Order becomes a whole number; anything non-numeric becomes 1. */
export function orderFromInput(value: unknown): number {
  const parsed = Number.parseInt(String(value ?? ""), 10);
  return Number.isNaN(parsed) ? 1 : parsed;
}

/** A new video starts last (highest order + 1, or 1) and active; an edit starts from what is saved. */
export function videoFormValues(saved: AdminVideo | undefined, videos: AdminVideo[]): VideoFormInput {
  return {
    title: saved?.title ?? "",
    subtitle: saved?.subtitle ?? "",
    description: saved?.description ?? "",
    embedUrl: saved?.embedUrl ?? "",
    order: saved?.order ?? videos.reduce((highest, v) => Math.max(highest, v.order), 0) + 1,
    isActive: saved?.isActive ?? true,
  };
}
