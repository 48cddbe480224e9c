import { z } from "zod";
import { catalogAddresses } from "./catalog-address.js";
import { namedSourceSchema } from "./citation.js";
import { INVALID_CURSOR } from "./common.js";
import { endpoint } from "./endpoint.js";

// The public course catalogue (issue 33, decision 044): public, published courses whose owner lists them
// (`listedInCatalog`) and whose owner's account is active, for visitors and signed-in users alike.

export const CATALOG_COURSE_NOT_FOUND = "Course not found";
export const CATALOG_PREVIEW_NOT_FOUND = "This course has no preview lesson";

/** `?q=` searches title and description; newest first, paged by id (the next cursor in X-Next-Cursor). */
export const catalogListQuerySchema = z.object({
  q: z.string().trim().max(200, "Search cannot exceed 200 characters").optional(),
  limit: z.coerce.number().int().min(1).max(60).default(24),
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, INVALID_CURSOR)
    .optional(),
});
export type CatalogListQuery = z.output<typeof catalogListQuerySchema>;

/** `<kebab-title>-<id>` (shared/catalog-slug.ts); anything else is a 400, an unknown or hidden course a 404. */
export const catalogSlugParamsSchema = z.object({
  slug: z
    .string()
    .max(80, "Invalid course address")
    .regex(/^(?:[a-z0-9-]*-)?[1-9][0-9]{0,9}$/, "Invalid course address"),
});

export const catalogCourseSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  /** The cover's public address (`/api/catalog/<slug>/cover`), or null. */
  cover: z.string().nullable(),
  ownerName: z.string(),
  lessonCount: z.number().int(),
});
export type CatalogCourse = z.infer<typeof catalogCourseSchema>;

export const catalogOutlineModuleSchema = z.object({
  title: z.string(),
  lessons: z.array(z.object({ title: z.string() })),
});

export const catalogCourseDetailSchema = catalogCourseSchema.extend({
  modules: z.array(catalogOutlineModuleSchema),
  /** Whether `GET /api/catalog/<slug>/preview` answers: the course's first lesson, open to everyone. */
  hasPreview: z.boolean(),
});
export type CatalogCourseDetail = z.infer<typeof catalogCourseDetailSchema>;

export const catalogPreviewSchema = z.object({
  courseId: z.number().int(),
  courseTitle: z.string(),
  slug: z.string(),
  moduleTitle: z.string(),
  title: z.string(),
  /** Markdown, drawn with the lesson reader's sanitising. */
  content: z.string(),
  lessonCount: z.number().int(),
  /** The sources its text numbers as [n]: names and pages only (decision 058). */
  sources: z.array(namedSourceSchema),
});
export type CatalogPreview = z.infer<typeof catalogPreviewSchema>;

export const catalogApi = {
  list: endpoint({
    ...catalogAddresses.list,
    query: catalogListQuerySchema,
    response: z.array(catalogCourseSchema),
  }),
  get: endpoint({ ...catalogAddresses.get, params: catalogSlugParamsSchema, response: catalogCourseDetailSchema }),
  /** The first lesson of a catalogue course, for anyone (every other lesson needs an account). */
  preview: endpoint({ ...catalogAddresses.preview, params: catalogSlugParamsSchema, response: catalogPreviewSchema }),
  /** The cover image's bytes of a catalogue course, for anyone (`/api/uploads/:id` needs an account). */
  cover: endpoint({
    method: "GET",
    path: "/api/catalog/:slug/cover",
    access: "public",
    params: catalogSlugParamsSchema,
    response: z.unknown(),
    kind: "file",
  }),
};
