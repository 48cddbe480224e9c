import { opensChat } from "../../shared/page-paths.js";
import { currentUserQuery } from "../domain/session.js";
import { queryClient } from "../lib/query-client.js";
import { AppLayout, ChatPage } from "./lazy-pages.js";

/**
 * Started before the first render: on /chat, the shell's and the chat's code load while the session is read
 * (instead of one after the other, each behind a Suspense fallback), and once the session names a user the
 * sidebar's lists are asked for while the route draws (decision 021). A visitor without a session asks for
 * nothing more than the code: the route guard sends them to sign in. The session is asked for first: asking
 * for the code adds a preload link per module, which took 30 ms before it went out (issue 29). For a
 * live session the server's preload hints have already started the sidebar's reads (issue 29). On /chat/{id} the
 * open chat's first reads go with the sidebar's, and the Markdown renderer's code with the page's (issue 29).
 */
export function prefetchFirstScreen(pathname: string): void {
  if (!opensChat(pathname)) return;
  const ignore = () => undefined; // the route loads them again and shows the failure
  const session = queryClient.fetchQuery(currentUserQuery);
  const sidebar = import("../features/chat/sidebar-prefetch.js");
  void AppLayout.preload().catch(ignore);
  void ChatPage.preload().catch(ignore);
  sidebar.catch(ignore);
  const chatId = openChatId(pathname);
  if (chatId !== null) sidebar.then((prefetch) => prefetch.preloadOpenChatCode()).catch(ignore);
  void session
    .then(async (user) => {
      if (!user) return;
      const prefetch = await sidebar;
      prefetch.prefetchSidebar(queryClient);
      if (chatId !== null) prefetch.prefetchOpenChat(queryClient, chatId);
    })
    .catch(ignore);
}

/** The chat a /chat/{id} address opens (as the chat page reads it), or null. */
function openChatId(pathname: string): number | null {
  const id = /^\/chat\/(\d{1,10})$/.exec(pathname)?.[1];
  return id !== undefined && Number(id) > 0 ? Number(id) : null;
}
