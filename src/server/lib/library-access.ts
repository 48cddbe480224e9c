import { TOKEN_MESSAGES } from "../../shared/contracts/api-tokens.js";
import type { TokenScope } from "../../shared/contracts/endpoint.js";
import { AppError } from "./app-error.js";
import type { Who } from "./who.js";

/**
 * The scope a personal API token needs to reach the library (decision 056): the user's files, collections and their
 * passages, by any route: the library's own reads, a chat's collections, a message's files, a reply given them, the
 * search_files tool, a citation, the text around a lesson's source.
 */
export const LIBRARY_SCOPE: TokenScope = "files:read";

/** Whether `who` may reach the library: a session always (its owner's); a token only with `files:read`. */
export function readsLibrary(who: Pick<Who, "token">): boolean {
  return !who.token || who.token.scopes.includes(LIBRARY_SCOPE);
}

/** 403 with the token's refusal ("This token does not have the files:read scope.") when `who` may not reach the library. */
export function assertReadsLibrary(who: Pick<Who, "token">): void {
  if (!readsLibrary(who)) throw new AppError("FORBIDDEN", TOKEN_MESSAGES.missingScope(LIBRARY_SCOPE));
}
