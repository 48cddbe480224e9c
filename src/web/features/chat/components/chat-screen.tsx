import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { DEFAULT_CHAT_TITLE, shownTitle } from "../../../../shared/chat-title.js";
import type { ChatPlatform } from "../../../../shared/contracts/ai-platforms.js";
import type { Chat, Message } from "../../../../shared/contracts/chat.js";
import { cannotReadImagesMessage, modelName } from "../../../../shared/model-catalog.js";
import { chooseModel } from "../../../../shared/model-choice.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { personalitiesQuery } from "../../../domain/personalities.js";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { useCurrentUser } from "../../../domain/session.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { useToastClearance } from "../../../lib/toast-clearance.js";
import {
  chatQuery,
  chatUserSettingsQuery,
  createChatForFirstMessage,
  messagesQuery,
  turnedOffPlatformsQuery,
  useUpdateChat,
} from "../api.js";
import type { ChatFileChip } from "../hooks/use-attachments.js";
import { type ChatView, useProvideChatActions } from "../hooks/use-chat-layout.js";
import { useReplyStream } from "../hooks/use-reply-stream.js";
import { useTemporaryChatCleanup } from "../hooks/use-temporary-chat-cleanup.js";
import { type LiveReply, mergeLive } from "../live-reply.js";
import { ChatHeader } from "./chat-header.js";
import { ChatInput, type VisionCheck } from "./chat-input.js";
import { ChatKnowledge } from "./chat-knowledge.js";
import { NoPlatformNotice, TemporaryChatNote, TutorLessonNote } from "./chat-notices.js";
import { ChatLoadFailed, ChatStatus } from "./chat-status.js";
import { MessageActionsContext } from "./message-actions.js";
import { MessageList } from "./message-list.js";
import { ModelPicker } from "./model-picker.js";
import { NewChatKnowledgeButton, NewChatKnowledgeChips, useNewChatCollections } from "./new-chat-knowledge.js";
import { PausedReplyNotice } from "./paused-reply-notice.js";
import { PersonalityPicker } from "./personality-picker.js";
import { ToolsMenu } from "./tools-menu.js";

/** For the shortcuts: the last reply's text, and Regenerate when the Regenerate button would show. */
function lastReplyView(stored: Message[], live: LiveReply | null, canReply: boolean, regenerate: (id: number) => void): ChatView {
  const shown = mergeLive(stored, live);
  const last = shown.at(-1);
  const reply = shown.findLast((m) => m.role === "assistant" && m.content !== "");
  return {
    lastReply: reply?.content ?? null,
    regenerate: canReply && live === null && last?.role === "assistant" ? () => regenerate(last.id) : undefined,
  };
}

/**
 * `tools` unset: the personality's (the server gives a new chat its personality's tools). `collectionIds`: chosen in the
 * composer or asked by the address (decision 066).
 */
type Draft = { aiPlatform?: string; model?: string; personalityId: number | null; tools?: string[]; collectionIds: readonly number[] };

const NONE: readonly number[] = [];

/**
 * Whether the chat's model reads images (the platforms' `imageModels`, from `acceptsImages`), and up to three models
 * the user may use that do, to switch to; the words are the server's refusal (`cannotReadImagesMessage`).
 */
function visionCheck(
  platforms: ChatPlatform[],
  aiPlatform: string,
  model: string | undefined,
  canPick: boolean,
  choose: (choice: { aiPlatform: string; model: string }) => void,
): VisionCheck | undefined {
  const platform = platforms.find((p) => p.slug === aiPlatform);
  if (!platform || !model) return undefined;
  const accepts = platform.imageModels.includes(model);
  const several = platforms.length > 1;
  const choices = platforms
    .flatMap((p) => p.models.filter((m) => p.imageModels.includes(m)).map((m) => ({ aiPlatform: p.slug, model: m, platform: p.name })))
    .slice(0, 3);
  return {
    accepts,
    refusal: cannotReadImagesMessage(
      model,
      choices.map((c) => c.model),
    ),
    alternatives: canPick
      ? choices.map((c) => ({
          key: `${c.aiPlatform}/${c.model}`,
          label: several ? `${modelName(c.model)} (${c.platform})` : modelName(c.model),
          choose: () => choose({ aiPlatform: c.aiPlatform, model: c.model }),
        }))
      : [],
  };
}

/** What a sent message shows of its files until the server's copy comes. */
const shownFiles = (files: ChatFileChip[]) =>
  files.map((f) => ({ name: f.name, size: f.size, fileId: f.fileId, type: f.type || null, kind: f.kind, missing: false }));

/**
 * One chat: header with the personality and model pickers, the messages, and the input bar. Keyed by chat id.
 * `chatId` null is a new chat: nothing is stored until its first message, which creates it (`onCreated`), with the
 * collections its address asks for (`asked`, "Ask this collection") or chosen in its composer.
 */
export function ChatScreen({
  chatId,
  onCreated,
  asked = NONE,
}: {
  chatId: number | null;
  onCreated?: (id: number) => void;
  asked?: readonly number[];
}) {
  const { user } = useCurrentUser();
  const client = useQueryClient();
  const chat = useQuery({ ...chatQuery(chatId ?? 0), enabled: chatId !== null });
  usePageTitle(
    chatId === null ? DEFAULT_CHAT_TITLE : chat.data ? shownTitle(chat.data.title) : chat.isError ? "Chat not found" : undefined,
  );
  const messages = useInfiniteQuery({ ...messagesQuery(chatId ?? 0), enabled: chatId !== null });
  const platforms = useQuery(aiPlatformsQuery);
  const settings = useQuery(chatUserSettingsQuery);
  const platform = usePlatformSettings();
  // Model selection off (Platform Settings): no picker; the server answers with the admin's model anyway.
  const canPickModel = !platform.isPending && platform.settings.enableModelSelection;
  // The new chat's choices, kept here until the first message creates it with them.
  const [draftChoice, setDraftChoice] = useState<Draft>({ personalityId: null, collectionIds: asked });
  const draftRef = useRef<Draft>(draftChoice);
  const chosen = chooseModel(settings.data?.defaultModel, platforms.data ?? []);
  const draftCollections = useNewChatCollections(chatId === null ? draftChoice.collectionIds : NONE);
  draftRef.current = { ...(chosen ?? {}), ...draftChoice, collectionIds: draftCollections.ids };
  const newChat = useMemo(
    () => ({
      create: async () => {
        const { personalityId, tools, collectionIds, ...choice } = draftRef.current;
        return (await createChatForFirstMessage(client, choice, personalityId, tools, collectionIds)).id;
      },
      onCreated: (id: number) => onCreated?.(id),
    }),
    [client, onCreated],
  );
  const reply = useReplyStream(chatId, newChat);
  const composer = useRef<HTMLDivElement>(null);
  const clearance = useToastClearance<HTMLDivElement>();
  const view = useRef<ChatView>({ lastReply: null });
  useProvideChatActions({ busy: reply.busy, stop: reply.stop, composer, view });
  const isAdmin = user?.role === "admin";
  const noUsable = platforms.isSuccess && platforms.data.length === 0;
  // Which platforms are only turned off (set up, but off), so the notice can name them; an admin also gets
  // the way to turn them on.
  const turnedOffPlatforms = useQuery({ ...turnedOffPlatformsQuery, enabled: noUsable });
  const turnedOff = (turnedOffPlatforms.data ?? []).map((p) => p.name);
  const update = useUpdateChat();
  useTemporaryChatCleanup(chatId ?? 0, chatId === null ? false : chat.data?.temporary);

  // A new chat shows the tools it will start with: those switched here, else its personality's.
  const draftTools =
    draftChoice.tools ??
    (draftChoice.personalityId === null
      ? []
      : (client.getQueryData(personalitiesQuery.queryKey)?.find((p) => p.id === draftChoice.personalityId)?.tools ?? []));
  const draft: Chat | undefined =
    chatId === null && !settings.isPending && !platforms.isPending
      ? {
          id: 0,
          title: DEFAULT_CHAT_TITLE,
          aiPlatform: draftRef.current.aiPlatform ?? "",
          model: draftRef.current.model ?? null,
          collectionIds: [...draftCollections.ids],
          tutorLesson: null,
          personalityId: draftChoice.personalityId,
          tools: draftTools,
          folderId: null,
          pinned: false,
          temporary: settings.data?.saveHistory === false || !platform.settings.enableHistory,
          createdAt: "",
          updatedAt: "",
        }
      : undefined;

  if (chatId === null ? !draft : chat.isPending) {
    return (
      <>
        <ChatHeader currentId={chatId} title="Loading..." />
        <ChatStatus>Loading chat...</ChatStatus>
      </>
    );
  }
  if (chatId !== null && chat.isError) return <ChatLoadFailed currentId={chatId} />;

  const current = (chatId === null ? draft : chat.data) as Chat;
  const usable = platforms.data ?? [];
  const noPlatform = platforms.isSuccess && usable.length === 0;
  const chatPlatform = usable.find((p) => p.slug === current.aiPlatform);
  const choice = canPickModel ? { platformSlug: current.aiPlatform, model: current.model ?? chatPlatform?.defaultModel ?? undefined } : {};
  const stored = chatId !== null && messages.data ? [...messages.data.pages].reverse().flatMap((page) => page.items) : [];

  const send = (content: string, files: ChatFileChip[]) =>
    reply.send({
      content,
      attachments: [],
      fileIds: files.flatMap((f) => (f.fileId === null ? [] : [f.fileId])),
      shownFiles: shownFiles(files),
      ...choice,
    });
  const switchModel = (next: { aiPlatform: string; model: string }) =>
    chatId === null
      ? setDraftChoice((d) => ({ ...d, aiPlatform: next.aiPlatform, model: next.model }))
      : update.mutate({ id: chatId, body: next }, { onError: (error) => notify.error("Could not change the model", errorMessage(error)) });
  const vision = visionCheck(
    usable,
    current.aiPlatform,
    current.model ?? chatPlatform?.defaultModel ?? undefined,
    canPickModel,
    switchModel,
  );
  const setTools = (tools: string[]) =>
    chatId === null
      ? setDraftChoice((d) => ({ ...d, tools }))
      : update.mutate(
          { id: chatId, body: { tools } },
          { onError: (error) => notify.error("Could not change the tools", errorMessage(error)) },
        );
  const setDraftCollections = (collectionIds: readonly number[]) => setDraftChoice((d) => ({ ...d, collectionIds }));
  view.current = lastReplyView(stored, reply.live, !noPlatform, (id) => void reply.regenerate(id, choice));

  return (
    <>
      <ChatHeader
        currentId={chatId}
        title={shownTitle(current.title)}
        picker={
          <>
            <PersonalityPicker
              chat={current}
              disabled={reply.busy}
              onChoose={
                chatId === null
                  ? (personalityId, preferred) =>
                      setDraftChoice((d) => ({ ...d, personalityId, tools: undefined, ...(canPickModel && preferred ? preferred : {}) }))
                  : undefined
              }
            />
            {canPickModel ? (
              <ModelPicker
                platforms={usable}
                aiPlatform={current.aiPlatform}
                model={current.model}
                disabled={reply.busy || update.isPending}
                onChange={switchModel}
              />
            ) : platform.isPending ? null : (
              <span className="hidden max-w-48 truncate text-xs text-muted-foreground sm:inline" title="Model chosen by the administrator">
                {current.model ? modelName(current.model) : platformName(current.aiPlatform, usable)}
              </span>
            )}
          </>
        }
        actions={chatId !== null ? <ChatKnowledge chat={current} /> : null}
      />
      {current.temporary ? <TemporaryChatNote /> : null}
      {current.tutorLesson ? <TutorLessonNote lesson={current.tutorLesson} /> : null}
      {messages.isError ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center text-sm">
          <p className="text-destructive">The messages could not be loaded: {errorMessage(messages.error)}</p>
          <button type="button" className="font-medium underline underline-offset-2" onClick={() => void messages.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <MessageActionsContext
          value={
            chatId === null
              ? null
              : {
                  busy: reply.busy || noPlatform,
                  edit: (message, content) => reply.edit(message, content, choice),
                  chatId,
                  follow: reply.follow,
                }
          }
        >
          <MessageList
            chatId={chatId}
            stored={stored}
            live={reply.live}
            loading={chatId !== null && messages.isPending}
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
        </MessageActionsContext>
      )}
      {/* What sits under the messages: toasts stay above it on a phone (lib/toast-clearance.ts). */}
      <div ref={clearance} className="shrink-0">
        {noPlatform ? <NoPlatformNotice isAdmin={isAdmin} turnedOff={turnedOff} /> : null}
        {chatId !== null && !reply.busy && stored.at(-1)?.status === "awaiting-approval" ? <PausedReplyNotice chatId={chatId} /> : null}
        <div ref={composer} className="contents">
          <ChatInput
            disabled={noPlatform || messages.isError}
            busy={reply.busy}
            onSend={send}
            onStop={reply.stop}
            vision={vision}
            tools={
              <>
                <ToolsMenu selected={current.tools} disabled={noPlatform} onChange={setTools} />
                {chatId === null ? (
                  <NewChatKnowledgeButton
                    chosen={draftCollections.ids}
                    disabled={noPlatform || reply.busy}
                    onChange={setDraftCollections}
                  />
                ) : null}
              </>
            }
            above={
              chatId === null ? (
                <NewChatKnowledgeChips
                  shown={draftCollections.shown}
                  onRemove={(id) => setDraftCollections(draftCollections.ids.filter((other) => other !== id))}
                />
              ) : null
            }
          />
        </div>
      </div>
    </>
  );
}
