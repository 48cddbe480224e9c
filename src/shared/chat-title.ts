import { DEFAULT_CHAT_TITLE } from "./constants.js";

/**
 * A chat's title: "New Chat" until its first user message names it (server), and what a chat without a
 * title shows (web). Written once for both.
 */
export { DEFAULT_CHAT_TITLE };

/** A short title from the first message: its first line, cut at a word near 60 characters. */
export function titleFromMessage(text: string): string {
  const line = text.trim().split("\n")[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (line.length <= 60) return line || DEFAULT_CHAT_TITLE;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}...`;
}

/** The title to set when a user message arrives: only a chat still called "New Chat" takes one. */
export function retitle(current: string, firstUserMessage: string): { title: string } | Record<string, never> {
  return current === DEFAULT_CHAT_TITLE ? { title: titleFromMessage(firstUserMessage) } : {};
}

/** What a chat shows as its title. */
export function shownTitle(title: string | null | undefined): string {
  return title || DEFAULT_CHAT_TITLE;
}
