import { z } from "zod";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";

/** How many folders one user may keep: enough for any real use, and a bound on the sidebar and its counts. */
export const MAX_FOLDERS_PER_USER = 200;
export const FOLDER_NAME_MAX = 60;

export const FOLDER_MESSAGES = {
  nameRequired: "Folder name is required",
  nameTooLong: `Folder name cannot exceed ${FOLDER_NAME_MAX} characters`,
  notFound: "Folder not found",
  tooMany: `You can have at most ${MAX_FOLDERS_PER_USER} folders. Delete one you no longer need to make another.`,
  chooseDeleteMode: "Choose whether the folder's chats move out (chats=move) or are deleted too (chats=delete)",
} as const;

// Control characters and unpaired surrogates cannot be stored as text: refused up front, like NUL.
const UNSAFE_TEXT = /[\p{Cc}\p{Cs}]/u;

const folderName = z
  .string({ error: FOLDER_MESSAGES.nameRequired })
  .trim()
  .min(1, FOLDER_MESSAGES.nameRequired)
  .max(FOLDER_NAME_MAX, FOLDER_MESSAGES.nameTooLong)
  .refine((value) => !UNSAFE_TEXT.test(value), "Folder name contains characters that are not allowed");

/** POST /api/chat-folders and PATCH /api/chat-folders/{id}: the name, trimmed. */
export const folderBodySchema = z.object({ name: folderName });
export type FolderBody = z.input<typeof folderBodySchema>;
export type FolderInput = z.output<typeof folderBodySchema>;

/** DELETE /api/chat-folders/{id}?chats=move|delete: the chats move out to no folder, or are deleted with it. */
export const deleteFolderQuerySchema = z.object({
  chats: z.enum(["move", "delete"], { error: FOLDER_MESSAGES.chooseDeleteMode }),
});
export type DeleteFolderMode = z.output<typeof deleteFolderQuerySchema>["chats"];

export const folderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The folder's listed chats (pinned ones included). */
  chatCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Folder = z.infer<typeof folderSchema>;

/** A user's folders of chats: owner-only (someone else's folder is a 404). */
export const chatFoldersApi = {
  /** All of the caller's folders, by name, each with its number of chats. */
  list: endpoint({ method: "GET", path: "/api/chat-folders", access: "user", response: z.array(folderSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/chat-folders",
    access: "user",
    body: folderBodySchema,
    response: folderSchema,
    status: 201,
  }),
  rename: endpoint({
    method: "PATCH",
    path: "/api/chat-folders/:id",
    access: "user",
    params: idParamsSchema,
    body: folderBodySchema,
    response: folderSchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/chat-folders/:id",
    access: "user",
    params: idParamsSchema,
    query: deleteFolderQuerySchema,
    response: z.null(),
    kind: "empty",
  }),
};
