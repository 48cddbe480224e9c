import { currentUserQuery } from "../domain/session.js";
import { paths } from "../lib/paths.js";
import { queryClient } from "../lib/query-client.js";
import { AppLayout, ChatPage } from "./lazy-pages.js";

const opensChat = (pathname: string) => pathname === paths.chat || pathname.startsWith(`${paths.chat}/`);

/**
 * Started before the first render: on /chat, the shell's and the chat's code load while the session is read
 * (instead of one after the other, each behind a Suspense fallback), and once the session names a user the
 * sidebar's lists are asked for while the route draws (decision 021). A visitor without a session asks for
 * nothing more than the code: the route guard sends them to sign in.
 */
export function prefetchFirstScreen(pathname: string): void {
  if (!opensChat(pathname)) return;
  const ignore = () => undefined; // the route loads them again and shows the failure
  void AppLayout.preload().catch(ignore);
  void ChatPage.preload().catch(ignore);
  const sidebar = import("../features/chat/sidebar-prefetch.js");
  sidebar.catch(ignore);
  void queryClient
    .fetchQuery(currentUserQuery)
    .then(async (user) => {
      if (user) (await sidebar).prefetchSidebar(queryClient);
    })
    .catch(ignore);
}
