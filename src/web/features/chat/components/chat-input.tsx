import { Paperclip, SendHorizontal, Square } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { ATTACHMENTS } from "../../../../shared/constants.js";
import type { Attachment } from "../../../../shared/contracts/chat.js";
import { Button } from "../../../components/ui/button.js";
import { useAttachments } from "../hooks/use-attachments.js";
import { AttachmentChip } from "./attachment-chip.js";
import { UsageMeter, useUsageMeter } from "./usage-meter.js";

const MIN_HEIGHT = 38;
const MAX_HEIGHT = 200;

/** Spec 000 section 5: the box grows with its content, from 38 px to 200 px. */
function fitHeight(box: HTMLTextAreaElement | null) {
  if (!box) return;
  box.style.height = "auto";
  box.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, box.scrollHeight))}px`;
}

/**
 * The message box: Enter sends, Shift+Enter makes a new line, an empty
 * (trimmed) message never goes. While a reply streams, Send becomes Stop.
 */
export function ChatInput({
  disabled,
  busy,
  onSend,
  onStop,
}: {
  /** No usable platform, or the chat is not ready. */
  disabled: boolean;
  /** A reply is being sent or streamed. */
  busy: boolean;
  /** Resolves false when the server refused the message: the text comes back. */
  onSend: (content: string, attachments: Attachment[]) => Promise<boolean>;
  onStop: () => void;
}) {
  const [text, setText] = useState("");
  const attachments = useAttachments();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  // The plan's allowance (decision 016): what is left shows above the box; once spent, sending waits.
  const meter = useUsageMeter();
  const locked = disabled || busy || !!meter.blocked;
  const canSend = !locked && text.trim().length > 0;

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
    const stored = await onSend(
      content.trim(),
      taken.files.map(({ name, content: body }) => ({ name, content: body })),
    );
    if (!stored) {
      setText((current) => current || content);
      taken.restore();
      requestAnimationFrame(() => fitHeight(boxRef.current));
    }
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
      <UsageMeter usage={meter.usage} />
      <div className="rounded-2xl border bg-background shadow-sm focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/30 dark:bg-input/20">
        {attachments.files.length > 0 ? (
          <ul aria-label="Attached files" className="flex flex-wrap gap-1.5 px-3 pt-3">
            {attachments.files.map((file) => (
              <li key={file.key} className="max-w-full">
                <AttachmentChip name={file.name} size={file.size} onRemove={() => attachments.remove(file.key)} />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex items-end gap-1 p-1.5">
          <input
            ref={fileRef}
            type="file"
            multiple
            hidden
            accept={ATTACHMENTS.extensions.join(",")}
            onChange={(event) => void attachments.add(event)}
            tabIndex={-1}
            aria-hidden="true"
          />
          <Button
            variant="ghost"
            size="icon"
            className="size-[38px] shrink-0 text-muted-foreground"
            aria-label="Attach files"
            title="Attach text files"
            disabled={locked || attachments.full}
            onClick={() => fileRef.current?.click()}
          >
            <Paperclip aria-hidden="true" />
          </Button>
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
      <p className="mt-1.5 hidden text-center text-xs text-muted-foreground sm:block">Enter to send, Shift+Enter for a new line</p>
    </form>
  );
}
