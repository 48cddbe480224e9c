import { z } from "zod";
import { idParamsSchema } from "./common.js";
import { endpoint, TOKEN_SCOPES } from "./endpoint.js";
import { requiredText } from "./fields.js";

/** How long a token may live, in days (issue 35: every token has an expiry). */
export const TOKEN_DAYS_MAX = 365;
/** Live tokens one user may hold at once. */
export const TOKENS_PER_USER_MAX = 20;

/** The words of the token rules, one home for the API and the Settings form. */
export const TOKEN_MESSAGES = {
  scopesRequired: "Choose at least one scope",
  tooMany: `You can have at most ${TOKENS_PER_USER_MAX} tokens. Revoke one you no longer use.`,
  planOff: "API tokens are not available on your plan.",
  notValid: "This API token is not valid: it may have expired or been revoked.",
  notForThis: "API tokens cannot call this endpoint.",
  missingScope: (scope: string) => `This token does not have the ${scope} scope.`,
  /** What a search_files call's result reads as, to a token without files:read (decision 056). */
  passagesHidden: "Passages of your files are not shown to API tokens without the files:read scope.",
} as const;

export const tokenScopeSchema = z.enum(TOKEN_SCOPES, { error: "Unknown scope" });

/** POST /api/tokens. */
export const createTokenBodySchema = z.object({
  name: requiredText("Name", 100),
  expiresInDays: z
    .number({ error: "Expiry must be a number of days" })
    .int("Expiry must be a whole number of days")
    .min(1, "A token lives at least 1 day")
    .max(TOKEN_DAYS_MAX, `A token lives at most ${TOKEN_DAYS_MAX} days`),
  scopes: z
    .array(tokenScopeSchema)
    .min(1, TOKEN_MESSAGES.scopesRequired)
    .max(TOKEN_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

/** A token as its owner sees it in lists: never the token itself. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's last four characters. */
  hint: z.string(),
  scopes: z.array(tokenScopeSchema),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer of a create: the token, shown this once. */
export const createdTokenSchema = apiTokenSchema.extend({ token: z.string() });

/** An admin's list: every live token, with its owner. */
export const adminApiTokenSchema = apiTokenSchema.extend({ userId: z.number().int(), username: z.string() });
export type AdminApiToken = z.infer<typeof adminApiTokenSchema>;

export const tokensApi = {
  create: endpoint({
    method: "POST",
    path: "/api/tokens",
    access: "user",
    body: createTokenBodySchema,
    response: createdTokenSchema,
    status: 201,
  }),
  list: endpoint({ method: "GET", path: "/api/tokens", access: "user", response: z.array(apiTokenSchema) }),
  revoke: endpoint({
    method: "DELETE",
    path: "/api/tokens/:id",
    access: "user",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};

export const adminTokensApi = {
  list: endpoint({ method: "GET", path: "/api/admin/tokens", access: "admin", response: z.array(adminApiTokenSchema) }),
  revoke: endpoint({
    method: "DELETE",
    path: "/api/admin/tokens/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
