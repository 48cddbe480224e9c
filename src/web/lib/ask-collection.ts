import { COLLECTIONS_MAX } from "../../shared/contracts/chat.js";
import { MAX_ID } from "../../shared/contracts/common.js";
import { paths } from "./paths.js";

/**
 * "Ask this collection" (decision 066): the library opens a new chat with a collection already chosen, by its address,
 * `/chat?collection=<id>` (one `collection` per id). The address is only a wish: the chat shows the ids the user's
 * own collections list has, and the server checks every id again when the chat is created.
 */
const PARAM = "collection";

/** A new chat that searches this collection. */
export function askCollectionPath(collectionId: number): string {
  return `${paths.chat}?${new URLSearchParams({ [PARAM]: String(collectionId) })}`;
}

/** The collection ids a new chat's address asks for: whole positive ids only, repeats dropped, at most COLLECTIONS_MAX. */
export function collectionsAsked(search: string): number[] {
  const ids = new URLSearchParams(search)
    .getAll(PARAM)
    .filter((value) => /^\d{1,10}$/.test(value))
    .map(Number)
    .filter((id) => id > 0 && id <= MAX_ID);
  return [...new Set(ids)].slice(0, COLLECTIONS_MAX);
}
