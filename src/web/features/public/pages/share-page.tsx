import { FileText, LogIn, MessagesSquare, UserPlus } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useParams } from "wouter";
import { SHARED_CHAT_DATA_ID, type SharePageData } from "../../../../shared/share-page.js";
import { Markdown } from "../../../components/markdown/markdown.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { useNamedSources } from "../../../components/sources/named-sources.js";
import { Button } from "../../../components/ui/button.js";
import { useSignedInUser } from "../../../domain/public-reads.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { loginPath, paths } from "../../../lib/paths.js";

/**
 * The snapshot the server wrote into this page (`shared/share-page.ts`), when it is this link's. The page is only ever
 * drawn from that data, read at request time from the database: a link that does not work has none (404).
 */
function readSharedChat(token: string): SharePageData | null {
  const text = document.getElementById(SHARED_CHAT_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as SharePageData;
    return data.token === token && Array.isArray(data.messages) ? data : null;
  } catch {
    return null;
  }
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

function AttachmentNames({ names }: { names: string[] }) {
  if (names.length === 0) return null;
  return (
    <ul className="flex flex-wrap justify-end gap-1.5" aria-label="Attached files (names only)">
      {names.map((name, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two files may have the same name; the list never changes
        <li key={i} className="flex max-w-60 items-center gap-1.5 rounded-lg border bg-background px-2 py-1 text-xs">
          <FileText className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="truncate">{name}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One message, drawn as the chat draws it: the user's text as written, a reply as Markdown (the chat's component), its
 * [n] and the sources they name (names and pages only, decision 058).
 */
function SharedMessage({ message }: { message: SharePageData["messages"][number] }) {
  const sources = useNamedSources(message.sources);
  if (message.role === "user") {
    return (
      <article data-message-role="user" aria-label="User message" className="flex justify-end">
        <div className="flex min-w-0 max-w-full flex-col items-end gap-1 sm:max-w-[75%]">
          <AttachmentNames names={message.attachmentNames} />
          <div className="max-w-full rounded-3xl bg-muted px-4 py-2 text-[0.9375rem] leading-7 whitespace-pre-wrap break-words text-foreground dark:bg-muted/80">
            {message.content}
          </div>
        </div>
      </article>
    );
  }
  return (
    <article data-message-role="assistant" aria-label="Assistant reply" className="flex min-w-0 flex-col gap-1">
      <Markdown content={message.content} className="text-[0.9375rem] leading-7" refs={sources.refs} />
      {sources.list}
      {message.model && <p className="text-xs text-muted-foreground">{message.model}</p>}
    </article>
  );
}

/** A visitor's way in: sign in or register, then back to this page. */
function SignInToContinue({ here }: { here: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="w-full text-sm text-muted-foreground sm:w-auto">Sign in to continue this chat in your own account.</p>
      <Button asChild size="sm">
        <a href={loginPath(here)}>
          <LogIn aria-hidden="true" />
          Sign in
        </a>
      </Button>
      <Button asChild size="sm" variant="outline">
        <a href={`${paths.register}&next=${encodeURIComponent(here)}`}>
          <UserPlus aria-hidden="true" />
          Register
        </a>
      </Button>
    </div>
  );
}

/**
 * /share/:token (issue 33, decision 043): a read-only snapshot of a chat, for anyone with the link. Drawn by the app
 * (for visitors too: not the public pages' small app, whose first screens it would push over budget), from the snapshot
 * the server wrote into the page.
 * `continueAction`: the app's "Continue this chat" for a signed-in viewer; `notFound`: the app's not-found page.
 */
export function SharePage({ continueAction, notFound }: { continueAction?: (token: string) => ReactNode; notFound?: ReactNode }) {
  const { token = "" } = useParams<{ token: string }>();
  const [shared] = useState(() => readSharedChat(token));
  const user = useSignedInUser();
  usePageTitle(shared ? shared.title : "Page Not Found");
  if (!shared) {
    return (
      notFound ?? (
        <PublicLayout>
          <section className="mx-auto max-w-2xl px-4 py-16" role="alert">
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
            <p className="mt-2 text-muted-foreground">This share link does not exist or was revoked.</p>
          </section>
        </PublicLayout>
      )
    );
  }
  const here = `/share/${token}`;
  return (
    <PublicLayout>
      <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10 sm:px-6">
        <header className="grid gap-3 border-b pb-6">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <MessagesSquare className="size-4" aria-hidden="true" />
            Shared conversation{shared.author ? ` by ${shared.author}` : ""} · {day(shared.updatedAt)}
          </p>
          <h1 className="break-words text-2xl font-bold tracking-tight sm:text-3xl">{shared.title}</h1>
          <p className="text-sm text-muted-foreground">
            A read-only copy of the chat as it was when shared. Later messages are not included.
          </p>
          {user && continueAction ? continueAction(token) : <SignInToContinue here={here} />}
        </header>
        <section className="grid gap-6" aria-label="Messages">
          {shared.messages.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot is fixed: its messages never move or change
            <SharedMessage key={i} message={message} />
          ))}
        </section>
      </div>
    </PublicLayout>
  );
}
