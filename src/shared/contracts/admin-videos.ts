import { z } from "zod";
import { idField, idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { longTitleField, TITLE_MAX, TITLE_TOO_SHORT } from "./fields.js";
import { gettingStartedVideoSchema } from "./public-content.js";

/** The Getting Started Videos form, checked the same way in the dialog and on the server. */
export const VIDEO_MESSAGES = {
  title: TITLE_TOO_SHORT,
  embedUrl: "Please enter a valid URL",
  /** The address is an https URL, but not a video player the dashboard may embed. */
  embedHost: "Please enter a valid URL: an https YouTube, Vimeo or Loom video link",
  order: "Order must be a positive integer",
  videoIds: "Send every video exactly once",
} as const;

export const VIDEO_LIMITS = { title: TITLE_MAX, subtitle: 200, description: 2000, embedUrl: 2000, order: 10_000, videos: 1000 } as const;

/** An https address: any other scheme (`javascript:`, `data:`, `http:`...) is "Please enter a valid URL". */
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

/** Optional text: an empty box and null both mean "none". */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} cannot exceed ${max} characters`)
    .nullable()
    .optional();

const embedUrlField = z
  .string({ error: VIDEO_MESSAGES.embedUrl })
  .trim()
  .min(1, VIDEO_MESSAGES.embedUrl)
  .max(VIDEO_LIMITS.embedUrl, VIDEO_MESSAGES.embedUrl)
  .refine(isHttpsUrl, VIDEO_MESSAGES.embedUrl);

/** 1 is the top. The form turns non-numeric input into 1 (docs/product.md, Validation messages) before this check. */
export const videoOrderField = z
  .number({ error: VIDEO_MESSAGES.order })
  .int(VIDEO_MESSAGES.order)
  .min(1, VIDEO_MESSAGES.order)
  .max(VIDEO_LIMITS.order, VIDEO_MESSAGES.order);

/** POST /api/admin/getting-started-videos. Without `order`, the video goes last (highest + 1, or 1). */
export const videoBodySchema = z.object({
  title: longTitleField,
  subtitle: optionalText("Subtitle", VIDEO_LIMITS.subtitle),
  description: optionalText("Description", VIDEO_LIMITS.description),
  embedUrl: embedUrlField,
  order: videoOrderField.optional(),
  isActive: z.boolean({ error: "Active status must be true or false" }).default(true),
});
export type VideoBody = z.input<typeof videoBodySchema>;
export type VideoInput = z.output<typeof videoBodySchema>;

/** PATCH: only what was sent changes (written out: `.partial()` would keep the default of isActive). */
export const videoPatchSchema = z.object({
  title: longTitleField.optional(),
  subtitle: videoBodySchema.shape.subtitle,
  description: videoBodySchema.shape.description,
  embedUrl: embedUrlField.optional(),
  order: videoOrderField.optional(),
  isActive: z.boolean({ error: "Active status must be true or false" }).optional(),
});
export type VideoPatchBody = z.input<typeof videoPatchSchema>;
export type VideoPatch = z.output<typeof videoPatchSchema>;

/** POST .../reorder: the whole list, top first; it must name every video exactly once. */
export const videoReorderSchema = z.object({
  videoIds: z
    .array(idField, { error: VIDEO_MESSAGES.videoIds })
    .max(VIDEO_LIMITS.videos, VIDEO_MESSAGES.videoIds)
    .refine((ids) => new Set(ids).size === ids.length, VIDEO_MESSAGES.videoIds),
});
export type VideoReorderBody = z.input<typeof videoReorderSchema>;

/** A video as admins see it: every video, with the player address the dashboard embeds (null: not shown there). */
export const adminVideoSchema = gettingStartedVideoSchema.extend({ playerUrl: z.string().nullable() });
export type AdminVideo = z.infer<typeof adminVideoSchema>;

/** Getting Started Videos (admins; the guard on /api/admin/* refuses everyone else). */
export const adminVideosApi = {
  list: endpoint({ method: "GET", path: "/api/admin/getting-started-videos", access: "admin", response: z.array(adminVideoSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/getting-started-videos",
    access: "admin",
    body: videoBodySchema,
    response: adminVideoSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/getting-started-videos/:id",
    access: "admin",
    params: idParamsSchema,
    body: videoPatchSchema,
    response: adminVideoSchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/getting-started-videos/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
  /** The full new sequence of ids, applied in one transaction (orders 1..n); answers the list in its new order. */
  reorder: endpoint({
    method: "POST",
    path: "/api/admin/getting-started-videos/reorder",
    access: "admin",
    body: videoReorderSchema,
    response: z.array(adminVideoSchema),
  }),
};
