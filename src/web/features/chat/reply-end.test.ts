import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Chat, ReplyEnd, ShownMessage } from "../../../shared/contracts/chat.js";
import type { Usage } from "../../../shared/contracts/usage.js";
import { applyReplyEnd, applyReplyStart, chatListQuery, chatQuery, messagesQuery, usageQuery, withReplyShown } from "./api.js";

const chat: Chat = {
  id: 5,
  title: "How do tides work?",
  aiPlatform: "openai",
  model: "m",
  temporary: false,
  personalityId: null,
  folderId: null,
  pinned: false,
  collectionIds: [],
  tutorLesson: null,
  tools: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};

const usage: Usage = {
  planType: "free",
  unlimited: false,
  tokens: { used: 0, limit: null, left: null, resetsAt: "2026-02-01T00:00:00.000Z" },
  messages: { used: 2, limit: 50, left: 48, resetsAt: "2026-01-03T00:00:00.000Z" },
  blocked: null,
  storage: { usedBytes: 0, files: 0, storageBytes: null, maxFiles: null, maxFileBytes: null },
};

/** A message of the branch shown: `id`, its parent, and its siblings (itself included). */
function shown(id: number, parentId: number | null, siblingIds: number[] = [id]): ShownMessage {
  return {
    id,
    chatId: chat.id,
    parentId,
    role: id % 2 ? "user" : "assistant",
    content: `message ${id}`,
    status: "complete",
    error: null,
    platformSlug: null,
    model: null,
    attachments: [],
    citations: [],
    toolCalls: [],
    inputTokens: null,
    outputTokens: null,
    personalityName: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    branch: { index: siblingIds.indexOf(id) + 1, count: siblingIds.length, siblingIds },
  };
}

/** Pages as the infinite query holds them: the newest page first, each oldest first, its cursor its oldest id. */
const pages = (...lists: ShownMessage[][]) => ({
  pages: lists.map((items, i) => ({ items, nextCursor: i < lists.length - 1 ? String(items[0]?.id) : null })),
  pageParams: lists.map((_, i) => (i === 0 ? null : String(lists[i - 1]?.[0]?.id))),
});
const ids = (data: ReturnType<typeof withReplyShown>) => data?.pages.map((page) => page.items.map((m) => m.id));

describe("the branch shown once a reply ended", () => {
  const [m1, m2, m3, m4] = [shown(1, null), shown(2, 1), shown(3, 2), shown(4, 3)];

  it("a send: the user's message and the reply after what was shown", () => {
    const next = withReplyShown(pages([m1, m2]), [m3, m4]);
    expect(ids(next)).toEqual([[1, 2, 3, 4]]);
    expect(next?.pages[0]?.items.at(-1)).toEqual(m4);
  });

  it("an edit: the edited message and what followed it give way to the new version and its reply", () => {
    const next = withReplyShown(pages([m1, m2, m3, m4]), [shown(5, 2, [3, 5]), shown(6, 5)]);
    expect(ids(next)).toEqual([[1, 2, 5, 6]]);
    expect(next?.pages[0]?.items[2]?.branch).toEqual({ index: 2, count: 2, siblingIds: [3, 5] });
  });

  it("a regenerate: the same question, then the new reply in place of the old", () => {
    const next = withReplyShown(pages([m1, m2, m3, m4]), [m3, shown(6, 3, [4, 6])]);
    expect(ids(next)).toEqual([[1, 2, 3, 6]]);
  });

  it("an edit of a message on an older page: the newer pages go, and the page left is read from the start again", () => {
    const next = withReplyShown(pages([m3, m4], [m1, m2]), [shown(5, 1, [2, 5]), shown(6, 5)]);
    expect(ids(next)).toEqual([[1, 5, 6]]);
    expect(next?.pageParams).toEqual([null]);
    expect(next?.pages[0]?.nextCursor).toBeNull();
  });

  it("keeps the older pages after the one holding the parent", () => {
    const next = withReplyShown(pages([m2, m3, m4], [m1]), [m3, shown(6, 3, [4, 6])]);
    expect(ids(next)).toEqual([[2, 3, 6], [1]]);
    expect(next?.pageParams).toEqual([null, "2"]);
    expect(next?.pages[0]?.nextCursor).toBe("2");
  });

  it("a first message (no parent): the two alone", () => {
    expect(ids(withReplyShown(pages([]), [m1, m2]))).toEqual([[1, 2]]);
  });

  it("cannot place it when the parent is not in the pages loaded, or nothing is loaded: read them again", () => {
    expect(withReplyShown(pages([m1, m2]), [shown(9, 8), shown(10, 9)])).toBeNull();
    expect(withReplyShown(undefined, [m3, m4])).toBeNull();
  });
});

describe("a reply's end in the caches", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("puts the chat, its place in the list, the usage and the messages without a request", () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const client = new QueryClient();
    const older = { ...chat, id: 4, title: "Older", updatedAt: "2026-01-01T12:00:00.000Z" };
    client.setQueryData(chatQuery(chat.id).queryKey, { ...chat, title: "New Chat", updatedAt: chat.createdAt });
    client.setQueryData(chatListQuery.queryKey, { pages: [{ items: [older], nextCursor: null }], pageParams: [null] });
    client.setQueryData(messagesQuery(chat.id).queryKey, pages([]));
    const after: ReplyEnd = { chat, shown: [shown(1, null), shown(2, 1)], usage };

    expect(applyReplyEnd(client, after)).toBe(true);
    expect(client.getQueryData(chatQuery(chat.id).queryKey)).toEqual(chat);
    expect(client.getQueryData(chatListQuery.queryKey)?.pages[0]?.items.map((c) => c.id)).toEqual([5, 4]);
    expect(client.getQueryData(usageQuery.queryKey)).toEqual(usage);
    expect(client.getQueryData(messagesQuery(chat.id).queryKey)?.pages[0]?.items.map((m) => m.id)).toEqual([1, 2]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("says so when the messages loaded cannot take it, and leaves them as they were", () => {
    const client = new QueryClient();
    const loaded = pages([shown(1, null), shown(2, 1)]);
    client.setQueryData(messagesQuery(chat.id).queryKey, loaded);
    expect(applyReplyEnd(client, { chat, shown: [shown(9, 8), shown(10, 9)], usage })).toBe(false);
    expect(client.getQueryData(messagesQuery(chat.id).queryKey)).toEqual(loaded);
    expect(client.getQueryData(chatQuery(chat.id).queryKey)).toEqual(chat);
  });
});

describe("a reply's start in the caches (issue 29: a new chat is listed while its first reply streams)", () => {
  const fresh: Chat = { ...chat, title: "New Chat", createdAt: "2026-01-03T00:00:00.000Z", updatedAt: "2026-01-03T00:00:00.000Z" };
  const question = {
    ...shown(1, null),
    role: "user" as const,
    content: "## How do *tides* work?\nAnd why?",
    createdAt: "2026-01-03T00:00:01.000Z",
  };

  it("lists the chat at once, first, titled from its first message by the server's rule", () => {
    const client = new QueryClient();
    const older = { ...chat, id: 4, title: "Older", updatedAt: "2026-01-01T12:00:00.000Z" };
    client.setQueryData(chatQuery(fresh.id).queryKey, fresh);
    client.setQueryData(chatListQuery.queryKey, { pages: [{ items: [older], nextCursor: null }], pageParams: [null] });
    applyReplyStart(client, fresh.id, question);
    const listed = client.getQueryData(chatListQuery.queryKey)?.pages[0]?.items;
    expect(listed?.map((c) => [c.id, c.title])).toEqual([
      [5, "How do tides work?"],
      [4, "Older"],
    ]);
    expect(listed?.[0]?.updatedAt).toBe(question.createdAt);
    expect(client.getQueryData(chatQuery(fresh.id).queryKey)?.title).toBe("How do tides work?");
  });

  it("keeps a chat's own title after its first message, and never lists a temporary chat", () => {
    const client = new QueryClient();
    client.setQueryData(chatListQuery.queryKey, { pages: [{ items: [], nextCursor: null }], pageParams: [null] });
    client.setQueryData(chatQuery(fresh.id).queryKey, { ...fresh, title: "Tides" });
    applyReplyStart(client, fresh.id, question);
    expect(client.getQueryData(chatListQuery.queryKey)?.pages[0]?.items.map((c) => c.title)).toEqual(["Tides"]);

    const temporary = new QueryClient();
    temporary.setQueryData(chatListQuery.queryKey, { pages: [{ items: [], nextCursor: null }], pageParams: [null] });
    temporary.setQueryData(chatQuery(fresh.id).queryKey, { ...fresh, temporary: true });
    applyReplyStart(temporary, fresh.id, question);
    expect(temporary.getQueryData(chatListQuery.queryKey)?.pages[0]?.items).toEqual([]);
  });
});
