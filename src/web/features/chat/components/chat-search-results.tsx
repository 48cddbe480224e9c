import { useQuery } from "@tanstack/react-query";
import { Spinner } from "../../../components/ui/spinner.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { errorMessage } from "../../../lib/api-client.js";
import { chatSearchQuery } from "../api.js";
import { ChatRow } from "./chat-row.js";

/** Chats whose title or messages hold the search text, each with the matching snippet. */
export function ChatSearchResults({
  query,
  folderId,
  currentId,
  now,
  onNavigate,
}: {
  query: string;
  /** Only this folder's chats. */
  folderId?: number | undefined;
  currentId: number | null;
  now: Date;
  onNavigate?: () => void;
}) {
  const hits = useQuery(chatSearchQuery(query, folderId));
  const platforms = useQuery(aiPlatformsQuery);
  if (hits.isPending) {
    return (
      <p className="flex items-center gap-2 px-3 py-4 text-sm text-muted-foreground">
        <Spinner className="size-4" label="Searching" />
        Searching...
      </p>
    );
  }
  if (hits.isError) return <p className="px-3 py-4 text-sm text-destructive">{errorMessage(hits.error)}</p>;
  if (hits.data.length === 0)
    return (
      <p className="px-3 py-4 text-sm text-muted-foreground">
        {folderId === undefined ? "No chats match." : "No chats in this folder match."}
      </p>
    );
  return (
    <ul aria-label="Search results" className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      {hits.data.map((hit) => (
        <li key={hit.id} className="py-0.5">
          <ChatRow
            chat={hit}
            snippet={hit.snippet}
            platformName={platformName(hit.aiPlatform, platforms.data)}
            selected={hit.id === currentId}
            now={now}
            onNavigate={onNavigate}
          />
        </li>
      ))}
    </ul>
  );
}
