import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { shownTitle } from "../../../../shared/chat-title.js";
import type { Attachment } from "../../../../shared/contracts/chat.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { useCurrentUser } from "../../../domain/session.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { chatQuery, chatUserSettingsQuery, messagesQuery, useUpdateChat } from "../api.js";
import { useReplyStream } from "../hooks/use-reply-stream.js";
import { useTemporaryChatCleanup } from "../hooks/use-temporary-chat-cleanup.js";
import { ChatHeader } from "./chat-header.js";
import { ChatInput } from "./chat-input.js";
import { NoPlatformNotice, TemporaryChatNote } from "./chat-notices.js";
import { ChatLoadFailed, ChatStatus } from "./chat-status.js";
import { MessageList } from "./message-list.js";
import { ModelPicker } from "./model-picker.js";
import { PersonalityPicker } from "./personality-picker.js";

/** One chat: header with the personality and model pickers, the messages, and the input bar. Keyed by chat id. */
export function ChatScreen({ chatId }: { chatId: number }) {
  const { user } = useCurrentUser();
  const chat = useQuery(chatQuery(chatId));
  const messages = useInfiniteQuery(messagesQuery(chatId));
  const platforms = useQuery(aiPlatformsQuery);
  const settings = useQuery(chatUserSettingsQuery);
  const platform = usePlatformSettings();
  // Model selection off (Platform Settings): no picker; the server answers with the admin's model anyway.
  const canPickModel = !platform.isPending && platform.settings.enableModelSelection;
  const reply = useReplyStream(chatId);
  const update = useUpdateChat();
  useTemporaryChatCleanup(chatId, chat.data?.temporary);

  if (chat.isPending) {
    return (
      <>
        <ChatHeader currentId={chatId} title="Loading..." />
        <ChatStatus>Loading chat...</ChatStatus>
      </>
    );
  }
  if (chat.isError) return <ChatLoadFailed currentId={chatId} />;

  const current = chat.data;
  const usable = platforms.data ?? [];
  const noPlatform = platforms.isSuccess && usable.length === 0;
  const chatPlatform = usable.find((p) => p.slug === current.aiPlatform);
  const choice = canPickModel ? { platformSlug: current.aiPlatform, model: current.model ?? chatPlatform?.defaultModel ?? undefined } : {};
  const stored = messages.data ? [...messages.data.pages].reverse().flatMap((page) => page.items) : [];

  const send = (content: string, attachments: Attachment[]) => reply.send({ content, attachments, ...choice });

  return (
    <>
      <ChatHeader
        currentId={chatId}
        title={shownTitle(current.title)}
        picker={
          <>
            <PersonalityPicker chat={current} disabled={reply.busy} />
            {canPickModel ? (
              <ModelPicker
                platforms={usable}
                aiPlatform={current.aiPlatform}
                model={current.model}
                disabled={reply.busy || update.isPending}
                onChange={(next) =>
                  update.mutate(
                    { id: chatId, body: next },
                    { onError: (error) => notify.error("Could not change the model", errorMessage(error)) },
                  )
                }
              />
            ) : platform.isPending ? null : (
              <span className="hidden max-w-48 truncate text-xs text-muted-foreground sm:inline" title="Model chosen by the administrator">
                {current.model ?? platformName(current.aiPlatform, usable)}
              </span>
            )}
          </>
        }
      />
      {current.temporary ? <TemporaryChatNote /> : null}
      {messages.isError ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center text-sm">
          <p className="text-destructive">The messages could not be loaded: {errorMessage(messages.error)}</p>
          <button type="button" className="font-medium underline underline-offset-2" onClick={() => void messages.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <MessageList
          stored={stored}
          live={reply.live}
          loading={messages.isPending}
          user={user}
          greetingName={user?.name?.trim() || user?.username || null}
          markdown={settings.data?.markdownRendering ?? true}
          older={{
            hasMore: messages.hasNextPage,
            loading: messages.isFetchingNextPage,
            load: () => void messages.fetchNextPage(),
          }}
          onRegenerate={(id) => void reply.regenerate(id, choice)}
          canReply={!noPlatform}
        />
      )}
      {noPlatform ? <NoPlatformNotice isAdmin={user?.role === "admin"} /> : null}
      <ChatInput disabled={noPlatform || messages.isError} busy={reply.busy} onSend={send} onStop={reply.stop} />
    </>
  );
}
