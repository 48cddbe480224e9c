import { queryOptions } from "@tanstack/react-query";
import { chatsApi } from "../../../shared/contracts/chat.js";
import { coursesApi } from "../../../shared/contracts/courses.js";
import { publicContentApi } from "../../../shared/contracts/public-content.js";
import { call } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";

/** GET /api/getting-started-videos: active videos, in order, with safe https player URLs. */
export const gettingStartedVideosQuery = endpointQuery(publicContentApi.videos, {});

/**
 * A first visit: the account has no chat (one with a message: empty chats are never listed) and no course of
 * its own yet. Read from what the server already lists, one row each.
 */
export const firstVisitQuery = queryOptions({
  queryKey: ["dashboard", "first-visit"],
  queryFn: async ({ signal }) => {
    const [chats, courses] = await Promise.all([
      call(chatsApi.list, { query: { limit: 1 } }, { signal }),
      call(coursesApi.list, { query: { scope: "mine", limit: 1 } }, { signal }).catch(() => ({ items: [] })),
    ]);
    return chats.items.length === 0 && courses.items.length === 0;
  },
  staleTime: 0, // read again on each visit: the first chat may have been sent since
});
