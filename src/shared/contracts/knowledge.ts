import { z } from "zod";
import { INVALID_CURSOR, idField, idParamsSchema, idText, MAX_ID } from "./common.js";
import { endpoint, tokenScoped } from "./endpoint.js";
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
  /**
   * Whether Retry may read it again: a failed file whose failure may pass (the provider or the database away). False
   * in every other state, and for a file that cannot be read (damaged, protected, not a kind read): the same bytes
   * would fail the same way, so its owner deletes it and uploads a readable copy (decision 068).
   */
  retryable: z.boolean(),
  collectionId: z.number().int().nullable(),
  /**
   * Attached in the chat composer (uploaded with `purpose=message`) and not sent yet: deleted at this time unless a
   * message sends it or it is moved into a collection (decision 068). Null: a library file.
   */
  unsentUntil: z.string().nullable(),
  /** A PDF's page count once read (null otherwise). */
  pages: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;

/** The upload's `purpose` field: a library file, or a file attached to a message not sent yet (decision 068). */
export const FILE_PURPOSES = ["library", "message"] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

export const FILE_NAME_MAX = 200;
export const fileNameField = requiredText("Name", FILE_NAME_MAX);

/** GET /api/files: the newest first, paged; `collectionId` limits it to one collection. */
export const filesQuerySchema = z.object({
  collectionId: idText.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** The last id of the page before (NEXT_CURSOR_HEADER); anything else is a 400, never a database error. */
  cursor: z
    .string()
    .regex(/^\d{1,10}$/, INVALID_CURSOR)
    .refine((value) => Number(value) <= MAX_ID, INVALID_CURSOR)
    .optional(),
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

/** The library's reads open to API tokens holding `files:read` (decision 056); its writes refuse every token. */
const reads = (endpoint: { method: string }) => endpoint.method === "GET";

export const filesApi = tokenScoped(
  "files:read",
  {
    /**
     * Multipart: field `file`, optional fields `collectionId` and `purpose` (`library`, the default, or `message`: a
     * file attached to a message not sent yet, in no collection, decision 068). 201 with the stored file, queued for
     * reading.
     */
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
    delete: endpoint({
      method: "DELETE",
      path: "/api/files/:id",
      access: "user",
      params: idParamsSchema,
      kind: "empty",
      response: z.null(),
    }),
    /** The bytes, typed by what they are: `attachment` for everything but images, `nosniff`, a sandbox CSP. */
    content: endpoint({
      method: "GET",
      path: "/api/files/:id/content",
      access: "user",
      params: idParamsSchema,
      kind: "file",
      response: z.null(),
    }),
    /** Reads a failed file again from the start: 409 unless it failed, 422 when it cannot be read (`retryable` false). */
    retry: endpoint({
      method: "POST",
      path: "/api/files/:id/retry",
      access: "user",
      params: idParamsSchema,
      response: knowledgeFileSchema,
    }),
  },
  reads,
);

export const collectionsApi = tokenScoped(
  "files:read",
  {
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
  },
  reads,
);

/**
 * The largest file the server takes whatever a plan says (a plan with no largest file, or an admin): the bytes are
 * held in memory while they are stored, and PostgreSQL keeps at most 1 GB in one value (decision 035).
 */
export const FILE_BYTES_CEILING = 512 * 1024 * 1024;

const MB = 1024 * 1024;
/** "12 bytes", "900 KB", "12.4 MB", "2 GB": binary units, as the plan limits are set (50 MB = 50 × 1024²). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 100 || Number.isInteger(value) ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, "");
  return `${shown} ${units[unit]}`;
}
export const bytesToMb = (bytes: number) => bytes / MB;
export const mbToBytes = (mb: number) => Math.round(mb * MB);

/** A free user's way out of a limit, when Early Access has more room; nothing when it would not help. */
const ROOM = " Delete some files or get Early Access.";
const ROOM_DELETE = " Delete some files to make room.";

/**
 * The refusals of an upload over a plan's limits (issue 30): 413 for a file larger than the plan allows, 409 for the
 * number of files and for the storage (the request is fine; the account is full, and deleting files makes the same
 * upload pass). `upgrade`: a free user whose plan Early Access beats.
 */
export const FILE_LIMIT_MESSAGES = {
  tooLarge: (limit: number, upgrade: boolean) =>
    `This file is larger than your plan allows (${formatBytes(limit)}).${upgrade ? " Get Early Access for larger files." : ""}`,
  tooLargeForServer: () => `This file is larger than ${formatBytes(FILE_BYTES_CEILING)}, the largest file this server takes.`,
  tooMany: (max: number, upgrade: boolean) =>
    `Your plan keeps up to ${max.toLocaleString("en-US")} ${max === 1 ? "file" : "files"}.${upgrade ? ROOM : ROOM_DELETE}`,
  /** A file that does not fit what is left (decision 061): "full" only when nothing is left. */
  storageFull: (limit: number, used: number, size: number, upgrade: boolean) =>
    (used >= limit
      ? `Your plan's storage (${formatBytes(limit)}) is full.`
      : `This file (${formatBytes(size)}) does not fit in your plan's storage (${formatBytes(limit)}): ${formatBytes(limit - used)} is left.`) +
    (upgrade ? ROOM : ROOM_DELETE),
  fileNotFound: "File not found",
  collectionNotFound: "Collection not found",
  notFailed: "Only a file that failed can be retried.",
  /** Retry on a file that cannot be read (decision 068): 422. */
  notRetryable: "This file cannot be read, so reading it again would fail the same way. Delete it and upload a readable copy.",
  /** What the library's row says instead of Retry, under the reason. */
  uploadReadableCopy: "Delete it and upload a readable copy.",
  noFile: "Choose a file to upload.",
  tooManyCollections: (max: number) => `You can have at most ${max} collections. Delete one to make room.`,
} as const;

/** Collections one user may keep (the list is not paged). */
export const MAX_COLLECTIONS_PER_USER = 200;

/** What a user's library holds against their plan (the usage meter and the library's meter). */
export const storageUsageSchema = z.object({
  usedBytes: z.number().int(),
  files: z.number().int(),
  /** The plan's limits, null: unlimited (always null for an admin). */
  storageBytes: z.number().int().nullable(),
  maxFiles: z.number().int().nullable(),
  maxFileBytes: z.number().int().nullable(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;
