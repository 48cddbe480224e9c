import { EyeOff, Paperclip, SendHorizontal, Square } from "lucide-react";
import { type ClipboardEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.js";
import { CHAT_FILE_EXTENSIONS, namePasted, phaseText } from "../chat-files.js";
import { type ChatFileChip, useAttachments } from "../hooks/use-attachments.js";
import { AttachmentChip } from "./attachment-chip.js";
import { FileDropZone } from "./file-drop-zone.js";
import { UsageMeter, useUsageMeter } from "./usage-meter.js";

const MIN_HEIGHT = 38;
const MAX_HEIGHT = 200;

/** The box grows with its content, from 38 px to 200 px. */
function fitHeight(box: HTMLTextAreaElement | null) {
  if (!box) return;
  box.style.height = "auto";
  box.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, box.scrollHeight))}px`;
}

/** With an image attached: whether the chat's model sees images, and the ones that do to switch to. */
export type VisionCheck = {
  accepts: boolean;
  /** The words the server refuses with (shared), said here before sending. */
  refusal: string;
  alternatives: { key: string; label: string; choose: () => void }[];
};

/** The chip of a file on the message being written. */
function ComposerChip({ chip, onRemove }: { chip: ChatFileChip; onRemove: () => void }) {
  const state = chip.phase === "failed" ? "failed" : chip.phase === "ready" ? "done" : "busy";
  return (
    <AttachmentChip
      name={chip.name}
      size={chip.size}
      state={state}
      status={chip.phase === "ready" ? undefined : phaseText(chip)}
      thumbnailUrl={chip.previewUrl}
      onRemove={onRemove}
    />
  );
}

/**
 * The message box: Enter sends, Shift+Enter makes a new line, an empty
 * (trimmed) message never goes. While a reply streams, Send becomes Stop.
 * Files come by the paperclip, by dropping them on the chat or by pasting; each uploads at once and the message
 * waits until every one is read.
 */
export function ChatInput({
  disabled,
  busy,
  onSend,
  onStop,
  vision,
  tools,
  above,
}: {
  /** No usable platform, or the chat is not ready. */
  disabled: boolean;
  /** A reply is being sent or streamed. */
  busy: boolean;
  /** Resolves false when the server refused the message: the text and the files come back. */
  onSend: (content: string, files: ChatFileChip[]) => Promise<boolean>;
  onStop: () => void;
  /** Whether the chat's model takes images (asked only with an image attached). */
  vision?: VisionCheck;
  /** The chat's Tools button (issue 34), beside the paperclip (and a new chat's Knowledge button, decision 066). */
  tools?: ReactNode;
  /** What the message goes with, above its files in the box: a new chat's collections (decision 066). */
  above?: ReactNode;
}) {
  const [text, setText] = useState("");
  const attachments = useAttachments();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  // The plan's allowance (decision 016): what is left shows above the box; once spent, sending waits.
  const meter = useUsageMeter();
  const locked = disabled || busy || !!meter.blocked;
  const hasImage = attachments.files.some((f) => f.image);
  const blind = hasImage && vision !== undefined && !vision.accepts;
  const canSend = !locked && text.trim().length > 0 && !attachments.pending && !attachments.failed && !blind;
  const filesNote = attachments.pending
    ? "Waiting for files to be read…"
    : attachments.failed
      ? "Remove the files that could not be read to send."
      : null;

  // Back to the box when a reply ends, if the user has not gone elsewhere.
  const wasLocked = useRef(locked);
  useEffect(() => {
    if (wasLocked.current && !locked && document.activeElement === document.body) boxRef.current?.focus();
    wasLocked.current = locked;
  }, [locked]);

  const send = async () => {
    if (!canSend) return;
    const content = text;
    const taken = attachments.take();
    setText("");
    if (boxRef.current) {
      boxRef.current.value = "";
      fitHeight(boxRef.current);
    }
    const stored = await onSend(content.trim(), taken.files);
    if (!stored) {
      setText((current) => current || content);
      taken.restore();
      requestAnimationFrame(() => fitHeight(boxRef.current));
    } else taken.sent();
  };

  // Pasted files (a screenshot, files copied in a file manager) are attached; pasted text stays text.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(event.clipboardData?.files ?? []);
    if (pasted.length === 0) return;
    event.preventDefault();
    attachments.addFiles(pasted.map(namePasted));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="mx-auto w-full max-w-3xl px-3 pb-3 sm:px-6 sm:pb-4"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <FileDropZone disabled={locked || attachments.full} onFiles={attachments.addFiles} />
      <UsageMeter usage={meter.usage} />
      <div className="rounded-2xl border bg-background shadow-sm focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/30 dark:bg-input/20">
        {above}
        {attachments.files.length > 0 ? (
          <ul aria-label="Attached files" className="flex flex-wrap gap-1.5 px-3 pt-3">
            {attachments.files.map((file) => (
              <li key={file.key} className="max-w-full">
                <ComposerChip chip={file} onRemove={() => attachments.remove(file.key)} />
              </li>
            ))}
          </ul>
        ) : null}
        {/* On a phone the buttons beside the box are narrower, so a new chat's three (files, tools, knowledge) leave
            the box room for its placeholder on one line (decision 066). */}
        <div className="flex items-end gap-1 p-1.5 max-sm:gap-0.5">
          <input
            ref={fileRef}
            type="file"
            multiple
            hidden
            accept={CHAT_FILE_EXTENSIONS.join(",")}
            onChange={(event) => {
              const chosen = Array.from(event.target.files ?? []);
              event.target.value = "";
              attachments.addFiles(chosen);
            }}
            tabIndex={-1}
            aria-hidden="true"
          />
          <Button
            variant="ghost"
            size="icon"
            className="size-[38px] shrink-0 text-muted-foreground max-sm:w-8"
            aria-label="Attach files"
            title="Attach files"
            disabled={locked || attachments.full}
            onClick={() => fileRef.current?.click()}
          >
            <Paperclip aria-hidden="true" />
          </Button>
          {tools}
          <textarea
            ref={boxRef}
            aria-label="Message"
            placeholder={disabled || meter.blocked ? "Sending is not available" : "Type your message..."}
            rows={1}
            value={text}
            disabled={locked}
            onChange={(event) => {
              setText(event.target.value);
              fitHeight(event.target);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            className="block h-[38px] max-h-[200px] min-h-[38px] flex-1 resize-none bg-transparent px-2 py-2 text-base leading-[22px] outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-60 md:text-sm"
          />
          {busy ? (
            <Button
              size="icon"
              variant="secondary"
              className="size-[38px] shrink-0 rounded-xl"
              aria-label="Stop generating"
              title="Stop"
              onClick={onStop}
            >
              <Square className="fill-current" aria-hidden="true" />
            </Button>
          ) : (
            <Button
              type="submit"
              size="icon"
              className="size-[38px] shrink-0 rounded-xl"
              aria-label="Send message"
              title="Send"
              disabled={!canSend}
            >
              <SendHorizontal aria-hidden="true" />
            </Button>
          )}
        </div>
      </div>
      {blind && vision ? (
        <div role="alert" className="mt-2 flex flex-col gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 px-3 py-2 text-sm">
          <p className="flex items-start gap-2">
            <EyeOff className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden="true" />
            {vision.refusal}
          </p>
          {vision.alternatives.length > 0 ? (
            <div className="flex flex-wrap items-center gap-1.5">
              <span className="text-xs text-muted-foreground">Switch to:</span>
              {vision.alternatives.map((model) => (
                <Button key={model.key} type="button" size="sm" variant="outline" className="h-7" onClick={model.choose}>
                  {model.label}
                </Button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
      {filesNote && !blind ? (
        <p role="status" className="mt-1.5 text-center text-xs text-muted-foreground">
          {filesNote}
        </p>
      ) : (
        <p className="mt-1.5 hidden text-center text-xs text-muted-foreground sm:block">Enter to send, Shift+Enter for a new line</p>
      )}
    </form>
  );
}
