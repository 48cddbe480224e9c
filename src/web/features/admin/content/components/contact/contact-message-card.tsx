import { Mail, MailOpen, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { CONTACT_SUBJECT_LABELS } from "../../../../../../shared/contact-subjects.js";
import type { ContactMessage } from "../../../../../../shared/contracts/contact.js";
import { Badge } from "../../../../../components/ui/badge.js";
import { Button } from "../../../../../components/ui/button.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { cn } from "../../../../../lib/cn.js";
import { notify } from "../../../../../lib/notify.js";
import { useMarkContactMessage } from "../../contact-api.js";

/** Read as written (the Badge default is small capitals). */
const badgeText = "text-xs font-medium tracking-normal normal-case";
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * One contact message: who, how to answer (mailto), the subject, whether they are a user, when, and the text
 * (plain text, line breaks kept; never HTML). Unread ones are bold with a dot; opening one marks it read.
 */
export function ContactMessageCard({ message, onDelete }: { message: ContactMessage; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const mark = useMarkContactMessage();
  const bodyId = useId();
  const headingId = useId();
  const subject = CONTACT_SUBJECT_LABELS[message.subject];

  const setRead = (read: boolean) =>
    mark.mutate({ id: message.id, read }, { onError: (error) => notify.error("Failed to update the message", errorMessage(error)) });

  const toggle = () => {
    setOpen(!open);
    if (!open && !message.read) setRead(true);
  };

  return (
    <article
      aria-labelledby={headingId}
      className={cn("rounded-xl border bg-card p-4 shadow-sm sm:p-5", !message.read && "border-primary/50 bg-primary/5")}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className={cn("flex min-w-0 items-center gap-2 text-base", message.read ? "font-medium" : "font-bold")}>
          {message.read ? null : <span className="size-2.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />}
          <span className="min-w-0 break-words">{message.name}</span>
          {message.read ? null : <span className="sr-only">(unread)</span>}
        </h2>
        <time dateTime={message.createdAt} className="text-xs text-muted-foreground">
          {dateFormat.format(new Date(message.createdAt))}
        </time>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <a
          href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${subject}`)}`}
          className="min-w-0 break-all font-medium text-primary underline-offset-4 hover:underline"
        >
          {message.email}
        </a>
        <Badge variant="outline" className={badgeText}>
          {subject}
        </Badge>
        <Badge variant="secondary" className={badgeText}>
          {message.isUser ? "User" : "Not a user"}
        </Badge>
      </div>
      <p id={bodyId} className={cn("mt-3 text-sm break-words whitespace-pre-wrap", !open && "line-clamp-3 text-muted-foreground")}>
        {message.message}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" aria-expanded={open} aria-controls={bodyId} onClick={toggle}>
          {open ? "Collapse" : "Open message"}
        </Button>
        <Button size="sm" variant="ghost" disabled={mark.isPending} onClick={() => setRead(!message.read)}>
          {mark.isPending ? <ButtonSpinner /> : message.read ? <Mail aria-hidden="true" /> : <MailOpen aria-hidden="true" />}
          {message.read ? "Mark as unread" : "Mark as read"}
        </Button>
        <Button size="sm" variant="ghost" className="text-destructive hover:text-destructive" onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}
