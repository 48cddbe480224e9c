import { DEFAULT_CHAT_TITLE } from "./constants.js";

/**
 * A chat's title: "New Chat" until its first user message names it (server), and what a chat without a
 * title shows (web). Written once for both.
 */
export { DEFAULT_CHAT_TITLE };

/** A code fence's line (``` or ~~~, with or without a language): never a title. */
const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * A line as it reads once rendered: without its heading, quote or list marker, with a link's or an image's text
 * in place of the link, and without the marks of emphasis, strike-through and inline code.
 */
function plainText(line: string): string {
  return line
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d{1,9}[.)])\s+/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|~~|`+/g, "")
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*\S)[*_](?![\w*])/g, "$1$2");
}

/**
 * A short title from the first message: its first line with text (a code fence's line is skipped), as it reads
 * rendered (plainText), cut at a word near 60 characters.
 */
export function titleFromMessage(text: string): string {
  const first = text.split("\n").find((row) => row.trim() !== "" && !FENCE.test(row)) ?? "";
  const line = plainText(first).replace(/\s+/g, " ").trim();
  if (line.length <= 60) return line || DEFAULT_CHAT_TITLE;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}...`;
}

/** The title to set when a user message arrives: only a chat still called "New Chat" takes one. */
export function retitle(current: string, firstUserMessage: string): { title?: string } {
  return current === DEFAULT_CHAT_TITLE ? { title: titleFromMessage(firstUserMessage) } : {};
}

/** What a chat shows as its title. */
export function shownTitle(title: string | null | undefined): string {
  return title || DEFAULT_CHAT_TITLE;
}

/** A lesson's tutor chat (issue 31) is named after its lesson, and keeps that name after its first message. */
export const tutorChatTitle = (lessonTitle: string) => `Tutor: ${lessonTitle}`.slice(0, 200).trimEnd();
