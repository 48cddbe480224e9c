import { z } from "zod";
import { namedSourceSchema } from "./citation.js";
import { idField, idParamsSchema, idText } from "./common.js";
import { endpoint } from "./endpoint.js";

/**
 * Chat share links (issue 33, decision 043). A link is named by its token only: 32 random bytes in base64url
 * (43 characters), never the chat id. Anything else in its place is refused by the schema (400 from the API, the
 * not-found page from `/share/:token`), so junk never reaches the database.
 */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const shareTokenSchema = z.string().regex(SHARE_TOKEN_PATTERN, "Invalid share link");
export const shareTokenParamsSchema = z.object({ token: shareTokenSchema });

/** The page of a link: `/share/<token>`. */
export const sharePagePath = (token: string) => `/share/${token}`;

export const SHARE_MESSAGES = {
  notFound: "Share link not found",
  temporaryChat: "A temporary chat (history off) cannot be shared. Turn Save Chat History on and start a new chat to share it.",
  emptyChat: "This chat has no finished messages to share yet.",
} as const;

/**
 * One message of a snapshot: role, text, attachment names (never their bytes), the sources a reply cites as [n] (names
 * and pages, never their text: decision 058), the model's name, when.
 */
export const sharedMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  attachmentNames: z.array(z.string()),
  sources: z.array(namedSourceSchema),
  model: z.string().nullable(),
  createdAt: z.string(),
});
export type SharedMessageView = z.infer<typeof sharedMessageSchema>;

/** GET /api/shares/:token: what anyone with the link sees. `author`: the owner's display name, only when they chose so. */
export const sharedChatSchema = z.object({
  token: z.string(),
  title: z.string(),
  author: z.string().nullable(),
  messages: z.array(sharedMessageSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SharedChat = z.infer<typeof sharedChatSchema>;

/** One of the caller's links (Settings > Shared links, the chat's Share dialog). */
export const shareLinkSchema = z.object({
  token: z.string(),
  url: z.string(),
  chatId: z.number().int(),
  title: z.string(),
  showAuthor: z.boolean(),
  messageCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const SHARES_PAGE_SIZE = 50;
export const shareListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(SHARES_PAGE_SIZE),
  cursor: idText.optional(),
  /** Only the links of this chat (the Share dialog). */
  chatId: idText.optional(),
});
export type ShareListQuery = z.output<typeof shareListQuerySchema>;

export const createShareBodySchema = z.object({ showAuthor: z.boolean().optional() }).strict();
export const updateShareBodySchema = z.object({ showAuthor: z.boolean().optional() }).strict();

export const createdShareSchema = z.object({ token: z.string(), url: z.string() });
export const continuedShareSchema = z.object({ chatId: idField });

/** Every link, for admins: its owner, the chat's title, when, and whether it still works. */
export const SHARE_STATES = ["active", "revoked", "ownerDisabled"] as const;
export const adminShareSchema = z.object({
  token: z.string(),
  url: z.string(),
  title: z.string(),
  owner: z.object({ id: z.number().int(), username: z.string() }),
  state: z.enum(SHARE_STATES),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type AdminShare = z.infer<typeof adminShareSchema>;
export const adminShareListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(SHARES_PAGE_SIZE),
  cursor: idText.optional(),
});

export const sharesApi = {
  create: endpoint({
    method: "POST",
    path: "/api/chats/:id/shares",
    access: "user",
    params: idParamsSchema,
    body: createShareBodySchema,
    response: createdShareSchema,
    status: 201,
  }),
  list: endpoint({
    method: "GET",
    path: "/api/shares",
    access: "user",
    query: shareListQuerySchema,
    response: z.array(shareLinkSchema),
    kind: "paged",
  }),
  /** A new snapshot of the branch shown now, and the show-my-name choice. */
  update: endpoint({
    method: "PUT",
    path: "/api/shares/:token",
    access: "user",
    params: shareTokenParamsSchema,
    body: updateShareBodySchema,
    response: shareLinkSchema,
  }),
  revoke: endpoint({
    method: "DELETE",
    path: "/api/shares/:token",
    access: "user",
    params: shareTokenParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
  get: endpoint({
    method: "GET",
    path: "/api/shares/:token",
    access: "public",
    params: shareTokenParamsSchema,
    response: sharedChatSchema,
  }),
  continue: endpoint({
    method: "POST",
    path: "/api/shares/:token/continue",
    access: "user",
    params: shareTokenParamsSchema,
    response: continuedShareSchema,
    status: 201,
  }),
};

export const adminSharesApi = {
  list: endpoint({
    method: "GET",
    path: "/api/admin/shares",
    access: "admin",
    query: adminShareListQuerySchema,
    response: z.array(adminShareSchema),
    kind: "paged",
  }),
  revoke: endpoint({
    method: "DELETE",
    path: "/api/admin/shares/:token",
    access: "admin",
    params: shareTokenParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
