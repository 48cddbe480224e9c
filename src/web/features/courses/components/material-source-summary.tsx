import { useQuery } from "@tanstack/react-query";
import { Folder, MessageSquare } from "lucide-react";
import type { CourseSources } from "../../../../shared/contracts/courses.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { sourceChatQuery, sourceFoldersQuery } from "../material-api.js";

/** A course made from a chat or a folder ("Turn into a course"): what it is made from, named. */
export function MaterialSourceSummary({ sources }: { sources: Pick<CourseSources, "chatId" | "folderId"> }) {
  const chat = useQuery({ ...sourceChatQuery(sources.chatId ?? 0), enabled: Boolean(sources.chatId) });
  const folders = useQuery({ ...sourceFoldersQuery, enabled: Boolean(sources.folderId) });
  const read = sources.chatId ? chat : folders;
  const Icon = sources.chatId ? MessageSquare : Folder;
  const name = sources.chatId ? chat.data?.title : folders.data?.find((folder) => folder.id === sources.folderId)?.name;
  return (
    <div className="flex items-start gap-3 rounded-lg border bg-muted/30 p-3" data-testid="material-source">
      <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="grid min-w-0 gap-0.5 text-sm">
        <p className="font-medium">{sources.chatId ? "From a chat" : "From a folder"}</p>
        {read.isPending ? (
          <Spinner label="Loading" />
        ) : read.isError ? (
          <p className="text-destructive dark:text-red-300">
            {errorMessage(read.error)} Open the chat list and choose "Turn into a course" again.
          </p>
        ) : name === undefined ? (
          <p className="text-destructive dark:text-red-300">This folder no longer exists. Choose another from the chat list.</p>
        ) : (
          <p className="break-words text-muted-foreground">
            {sources.chatId ? `“${name || "New Chat"}”: the conversation's branch shown.` : `“${name}”: all its chats.`}
          </p>
        )}
      </div>
    </div>
  );
}
