import { z } from "zod";
import { idField, idParamsSchema, idText } from "./common.js";
import { endpoint } from "./endpoint.js";
import { requiredText } from "./fields.js";

/**
 * The knowledge library (issue 30): a user's files and collections. The names of the paths and of the file's
 * fields are fixed by the issue, so that other clients and tests can rely on them.
 */

export const FILE_STATUSES = ["queued", "processing", "ready", "failed"] as const;
export const fileStatusSchema = z.enum(FILE_STATUSES);
export type FileStatus = z.infer<typeof fileStatusSchema>;

export const FILE_KINDS = ["pdf", "docx", "markdown", "text", "html", "csv", "json", "code", "image"] as const;
export const fileKindSchema = z.enum(FILE_KINDS);
export type FileKind = z.infer<typeof fileKindSchema>;

export const knowledgeFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** The type found from the bytes (application/pdf, image/png, text/markdown...), never from the name. */
  type: z.string(),
  kind: fileKindSchema,
  status: fileStatusSchema,
  /** While processing: "reading", then "indexing" with `progressDone` of `progressTotal` pieces. */
  stage: z.enum(["reading", "indexing"]).nullable(),
  progressDone: z.number().int(),
  progressTotal: z.number().int(),
  /** Why it failed, in words for the user (null unless failed). */
  error: z.string().nullable(),
  collectionId: z.number().int().nullable(),
  /** A PDF's page count once read (null otherwise). */
  pages: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;

export const FILE_NAME_MAX = 200;
export const fileNameField = requiredText("Name", FILE_NAME_MAX);

/** GET /api/files: the newest first, paged; `collectionId` limits it to one collection. */
export const filesQuerySchema = z.object({
  collectionId: idText.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(100).optional(),
});
export type FilesQuery = z.output<typeof filesQuerySchema>;

/** PATCH /api/files/:id: rename, or move (`collectionId` null: out of every collection). */
export const updateFileBodySchema = z
  .object({ name: fileNameField.optional(), collectionId: idField.nullable().optional() })
  .refine((body) => body.name !== undefined || body.collectionId !== undefined, "Nothing to change");
export type UpdateFileBody = z.input<typeof updateFileBodySchema>;

export const COLLECTION_NAME_MAX = 100;
export const collectionBodySchema = z.object({ name: requiredText("Name", COLLECTION_NAME_MAX) });
export type CollectionBody = z.input<typeof collectionBodySchema>;

export const collectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  fileCount: z.number().int(),
  /** Bytes of its files. */
  size: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Collection = z.infer<typeof collectionSchema>;

export const filesApi = {
  /** Multipart: field `file`, optional field `collectionId`. 201 with the stored file, queued for reading. */
  upload: endpoint({ method: "POST", path: "/api/files", access: "user", upload: true, status: 201, response: knowledgeFileSchema }),
  list: endpoint({
    method: "GET",
    path: "/api/files",
    access: "user",
    query: filesQuerySchema,
    kind: "paged",
    response: z.array(knowledgeFileSchema),
  }),
  get: endpoint({ method: "GET", path: "/api/files/:id", access: "user", params: idParamsSchema, response: knowledgeFileSchema }),
  update: endpoint({
    method: "PATCH",
    path: "/api/files/:id",
    access: "user",
    params: idParamsSchema,
    body: updateFileBodySchema,
    response: knowledgeFileSchema,
  }),
  /** Deletes the bytes and every piece read from them. */
  delete: endpoint({ method: "DELETE", path: "/api/files/:id", access: "user", params: idParamsSchema, kind: "empty", response: z.null() }),
  /** The bytes, typed by what they are: `attachment` for everything but images, `nosniff`, a sandbox CSP. */
  content: endpoint({
    method: "GET",
    path: "/api/files/:id/content",
    access: "user",
    params: idParamsSchema,
    kind: "file",
    response: z.null(),
  }),
  /** Reads a failed file again from the start. */
  retry: endpoint({ method: "POST", path: "/api/files/:id/retry", access: "user", params: idParamsSchema, response: knowledgeFileSchema }),
};

export const collectionsApi = {
  list: endpoint({ method: "GET", path: "/api/collections", access: "user", response: z.array(collectionSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/collections",
    access: "user",
    body: collectionBodySchema,
    status: 201,
    response: collectionSchema,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/collections/:id",
    access: "user",
    params: idParamsSchema,
    body: collectionBodySchema,
    response: collectionSchema,
  }),
  /** Deletes the collection and its files. */
  delete: endpoint({
    method: "DELETE",
    path: "/api/collections/:id",
    access: "user",
    params: idParamsSchema,
    kind: "empty",
    response: z.null(),
  }),
};
