import { type SQL, sql } from "drizzle-orm";
import { chats } from "../../db/schema/index.js";

/**
 * Which chats a person sees in their lists (the sidebar's sections, the folders' counts, search, the export of all
 * chats): saved (not temporary) and with a message. `has_messages` is set by the database whenever messages are
 * written (migration 0034, decision 077), so a list reads no message to know it: 10,000 chats in 200 folders, the
 * folders' counts read an index of the listed chats instead of probing each chat's messages.
 */
export const listedChat: SQL = sql`(not ${chats.temporary} and ${chats.hasMessages})`;

/** `listedChat` in a query that names the chats table `alias` (written SQL: `from chats c`). */
export const listedChatAs = (alias: "c" | "chats"): SQL => sql.raw(`(not ${alias}.temporary and ${alias}.has_messages)`);
