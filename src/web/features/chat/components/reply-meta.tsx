import { Bot } from "lucide-react";
import { useSyncExternalStore } from "react";
import type { Message } from "../../../../shared/contracts/chat.js";
import { modelName } from "../../../../shared/model-catalog.js";
import { formatFullDate, formatRelativeTime } from "../format-relative-time.js";

// One minute clock for every time on the screen ("5 min ago" moves on), running only while one is shown.
const listeners = new Set<() => void>();
let minute = Date.now();
let timer: number | undefined;
function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= window.setInterval(() => {
    minute = Date.now();
    for (const l of listeners) l();
  }, 60_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      window.clearInterval(timer);
      timer = undefined;
    }
  };
}
const useMinute = () => useSyncExternalStore(subscribe, () => minute);

/** A message's time, relative, with the full date in its tooltip. */
export function MessageTime({ at, className }: { at: string; className?: string }) {
  const now = useMinute();
  const relative = formatRelativeTime(at, new Date(Math.max(now, Date.now())));
  if (!relative) return null;
  return (
    <time dateTime={at} title={formatFullDate(at)} className={className}>
      {relative}
    </time>
  );
}

/** Above a reply: who wrote it (model, personality) and when. */
export function ReplyMeta({ message }: { message: Message }) {
  return (
    <p data-reply-meta className="flex min-w-0 flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground">
      <Bot className="size-3.5 shrink-0 text-primary" aria-hidden="true" />
      {message.model ? (
        <span className="font-medium text-foreground/80" title={message.model}>
          {modelName(message.model)}
        </span>
      ) : (
        <span className="font-medium text-foreground/80">Assistant</span>
      )}
      {message.personalityName ? (
        <>
          <span aria-hidden="true">·</span>
          <span>{message.personalityName}</span>
        </>
      ) : null}
      <span aria-hidden="true">·</span>
      <MessageTime at={message.createdAt} />
    </p>
  );
}
