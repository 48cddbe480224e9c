import { AlertTriangle, RefreshCw } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import type { Citation, Message } from "../../../../shared/contracts/chat.js";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { CopyButton } from "../../../components/markdown/copy-button.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { Button } from "../../../components/ui/button.js";
import { UserAvatar } from "../../../components/user-avatar.js";
import { preloadable } from "../../../lib/preloadable.js";
import { shownCitations } from "../shown-citations.js";
import { BranchSwitcher } from "./branch-switcher.js";
import { useCitations } from "./citations.js";
import { Markdown, PlainText } from "./lazy-markdown.js";
import { EditableUserMessage } from "./message-edit.js";
import { MessageFiles } from "./message-files.js";
import { ReplyMeta } from "./reply-meta.js";
import { TypingIndicator } from "./typing-indicator.js";

/**
 * Tool cards (issue 34) load with the first reply that made a call: the chat's first screen has none of their code.
 * Until they are there the reply's text shows alone, without suspending (decision 041).
 */
const ReplyWithTools = preloadable(
  () => import("./tool-call-card.js").then((m) => m.ReplyWithTools),
  ({ message, renderText }: { message: Message; renderText: (text: string, key: string) => ReactNode }) =>
    renderText(message.content, "text"),
);

const NO_CITATIONS: Citation[] = [];

/** A part of a reply's text: markdown, or as typed (markdown off, or while the renderer loads). */
function ReplyText({ content, markdown, refs }: { content: string; markdown: boolean; refs?: NumberedRefs }) {
  return markdown ? (
    <Markdown content={content} className="text-[0.9375rem] leading-7" refs={refs} />
  ) : (
    <PlainText content={content} refs={refs} />
  );
}

/** Why a reply is short: stopped, cut off, or failed. */
function StatusNote({ message }: { message: Message }) {
  if (message.status === "incomplete") {
    return <p className="text-xs text-muted-foreground italic">{message.error || "Stopped before the end"}</p>;
  }
  if (message.status === "failed") {
    return (
      <p role="alert" className="flex items-start gap-1.5 rounded-md bg-destructive/10 px-2 py-1 text-xs text-destructive">
        <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
        {message.error || "The reply failed."}
      </p>
    );
  }
  return null;
}

/**
 * An AI reply as full-width text (no bubble): who wrote it and when, the markdown (or plain text), its status,
 * Copy and, for the last one, Regenerate.
 */
export function AssistantMessage({
  message,
  markdown,
  typing,
  onRegenerate,
}: {
  message: Message | null;
  markdown: boolean;
  typing: boolean;
  onRegenerate?: () => void;
}) {
  const content = message?.content ?? "";
  // A reply paused on a tool call (awaiting approval) is not over: no Copy or Regenerate until it ends.
  const settled = message !== null && message.status !== "streaming" && message.status !== "awaiting-approval" && !typing;
  // A settled reply's citations came with its end (its done event); while it is written, the passages its search_files
  // calls gave make chips as its text cites them (decision 055); the other [n] stay text until the end.
  const citations = useMemo(() => (message ? shownCitations(message, settled) : NO_CITATIONS), [message, settled]);
  const cited = useCitations(message?.chatId ?? 0, message?.id ?? 0, citations);
  return (
    <article data-message-role="assistant" aria-label="Assistant reply" className="flex min-w-0 flex-col">
      <div className="flex min-w-0 flex-col items-start gap-1.5">
        {message ? <ReplyMeta message={message} /> : null}
        <div className="w-full min-w-0">
          {typing && content === "" && !message?.toolCalls.length ? (
            <TypingIndicator />
          ) : message?.toolCalls.length ? (
            <ReplyWithTools
              message={message}
              renderText={(text, key) => <ReplyText key={key} content={text} markdown={markdown} refs={cited.refs} />}
            />
          ) : (
            <ReplyText content={content} markdown={markdown} refs={cited.refs} />
          )}
        </div>
        {message ? <StatusNote message={message} /> : null}
        {cited.sources}
        {cited.refs ? cited.panel : null}
        {settled ? (
          <div className="-ml-1.5 flex items-center gap-0.5">
            {message ? <BranchSwitcher message={message} /> : null}
            {content ? <CopyButton getText={() => content} label="Copy reply" /> : null}
            {onRegenerate ? (
              <Button
                variant="ghost"
                size="icon"
                className="size-7 text-muted-foreground hover:text-foreground"
                aria-label="Regenerate reply"
                title="Regenerate reply"
                onClick={onRegenerate}
              >
                <RefreshCw aria-hidden="true" />
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}

/** The user's message: a compact bubble on the right, with its attached files, and the avatar or initials (docs/product.md, Chat). */
export function UserMessage({ message, user }: { message: Message; user: PublicUser | null }) {
  return (
    <article data-message-role="user" aria-label="Your message" className="flex justify-end gap-3">
      <div className="flex min-w-0 max-w-[calc(100%-2.75rem)] flex-col items-end gap-1 sm:max-w-[75%]">
        <MessageFiles attachments={message.attachments} />
        <EditableUserMessage message={message}>
          <div className="max-w-full rounded-3xl bg-muted px-4 py-2 text-[0.9375rem] leading-7 whitespace-pre-wrap break-words text-foreground dark:bg-muted/80">
            {message.content}
          </div>
        </EditableUserMessage>
      </div>
      <UserAvatar user={user} className="mt-0.5 size-8 shrink-0" fallbackClassName="text-xs" />
    </article>
  );
}
