/**
 * The shared chat page `/share/<token>` (issue 33, decision 043): what the server writes into the page at request time
 * (its head, the snapshot as data, a plain-text copy for readers without JavaScript), and what the page's code reads
 * back. The browser draws the messages with the chat's own Markdown component from that data: one renderer.
 */
import { sliceWhole } from "./cut-text.js";
import { escapeHtml } from "./prerender.js";

/** The page's address pattern (`paths.shareRoute` in web/lib/paths.ts). */
export const SHARE_PAGE = /^\/share\/([^/]+)$/;

/** The id of the `<script type="application/json">` block holding the snapshot (data, never executed). */
export const SHARED_CHAT_DATA_ID = "shared-chat";

/** What the page needs of a snapshot (the public API's answer, `sharedChatSchema`). */
export interface SharePageData {
  token: string;
  title: string;
  author: string | null;
  messages: {
    role: "user" | "assistant";
    content: string;
    attachmentNames: string[];
    /** The sources a reply cites as [n]: names and pages only (decision 058). */
    sources: { n: number; name: string; page: number | null }[];
    model: string | null;
    createdAt: string;
  }[];
  createdAt: string;
  updatedAt: string;
}

/** The description: the first lines of the conversation, as plain words, cut near 200 characters. */
export function shareDescription(shared: SharePageData): string {
  const text = shared.messages
    .slice(0, 2)
    .map((m) => m.content)
    .join(" ")
    .replace(/[`*_#>[\]()!|~-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 200 ? `${sliceWhole(text, 197).replace(/\s+\S*$/, "")}…` : text;
}

/** The page's `<title>`: the chat's title, then the product's name. */
export const shareTitle = (shared: Pick<SharePageData, "title">, platformName: string) => `${shared.title} | ${platformName}`;

/** The head of a shared page: title, description, Open Graph, and noindex. Every value escaped. */
export function shareHead(shared: SharePageData, platformName: string): { title: string; meta: string } {
  const title = escapeHtml(shareTitle(shared, platformName));
  const description = escapeHtml(shareDescription(shared));
  const meta = [
    `<meta name="description" content="${description}" />`,
    `<meta name="robots" content="noindex" />`,
    `<meta property="og:type" content="article" />`,
    `<meta property="og:site_name" content="${escapeHtml(platformName)}" />`,
    `<meta property="og:title" content="${escapeHtml(shared.title)}" />`,
    `<meta property="og:description" content="${description}" />`,
  ].join("\n    ");
  return { title: `<title>${title}</title>`, meta };
}

/** The snapshot as a data block (`<` written as \u003c, so no text can end the block). */
export function sharedChatScript(shared: SharePageData): string {
  return `<script type="application/json" id="${SHARED_CHAT_DATA_ID}">${JSON.stringify(shared).replace(/</g, "\\u003c")}</script>`;
}

/** The conversation as escaped plain text, for readers without JavaScript (the page draws it as Markdown). */
export function sharedChatNoscript(shared: SharePageData): string {
  const items = shared.messages
    .map((m) => `<section><h2>${m.role === "user" ? "User" : "Assistant"}</h2><p>${escapeHtml(m.content)}</p></section>`)
    .join("");
  return `<noscript><article><h1>${escapeHtml(shared.title)}</h1>${items}</article></noscript>`;
}
