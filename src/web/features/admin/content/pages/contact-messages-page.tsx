import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { useState } from "react";
import type { ContactMessage } from "../../../../../shared/contracts/contact.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { LoadMoreFooter } from "../../../../components/ui/load-more.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { cn } from "../../../../lib/cn.js";
import { notify } from "../../../../lib/notify.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { ContactMessageCard } from "../components/contact/contact-message-card.js";
import { type ContactFilter, contactMessagesQuery, useDeleteContactMessage, useUnreadContactCount } from "../contact-api.js";

function FilterButtons({
  value,
  unread,
  onChange,
}: {
  value: ContactFilter;
  unread: number | undefined;
  onChange: (next: ContactFilter) => void;
}) {
  const options: { value: ContactFilter; label: string }[] = [
    { value: "all", label: "All" },
    { value: "unread", label: unread === undefined ? "Unread" : `Unread (${unread})` },
  ];
  return (
    <fieldset className="inline-flex w-fit rounded-lg bg-muted p-1">
      <legend className="sr-only">Show</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            "rounded-md px-4 py-1.5 text-sm font-medium text-muted-foreground transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
            value === option.value && "bg-background text-foreground shadow-sm dark:bg-input/30",
          )}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}

/** /admin/contact-messages: what visitors sent through the contact form, newest first, read and unread. */
export function ContactMessagesPage() {
  usePageTitle("Contact Messages", "Admin");
  const [filter, setFilter] = useState<ContactFilter>("all");
  const list = useInfiniteQuery({ ...contactMessagesQuery(filter), placeholderData: keepPreviousData });
  const unread = useUnreadContactCount();
  const remove = useDeleteContactMessage();
  const [toDelete, setToDelete] = useState<ContactMessage | null>(null);
  const messages = list.data?.pages.flatMap((page) => page.items) ?? [];
  const switching = list.isPlaceholderData;

  const confirmDelete = () => {
    if (!toDelete) return;
    const { id, name } = toDelete;
    remove.mutate(id, {
      onSuccess: () => {
        notify.success("Message deleted", `The message from ${name} has been deleted.`);
        setToDelete(null);
      },
      onError: (error) => notify.error("Failed to delete the message", errorMessage(error)),
    });
  };

  return (
    <AdminShell>
      <div className="grid max-w-4xl gap-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Contact Messages</h1>
          <p className="text-muted-foreground">Messages sent through the contact form, newest first. Opening a message marks it read.</p>
        </div>
        <FilterButtons value={filter} unread={unread.data?.unread} onChange={setFilter} />
        {list.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading messages..." />
            <span aria-hidden="true">Loading messages...</span>
          </div>
        ) : list.isError && messages.length === 0 ? (
          <LoadFailed
            title="Failed to load contact messages."
            error={list.error}
            advice="Check your connection, then try again."
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        ) : messages.length === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-4 py-12 text-center">
              <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground">{filter === "unread" ? "No unread messages." : "No contact messages yet."}</p>
              {filter === "unread" ? (
                <Button variant="outline" onClick={() => setFilter("all")}>
                  Show all messages
                </Button>
              ) : null}
            </CardContent>
          </Card>
        ) : (
          <div className={cn("grid gap-4 transition-opacity", switching && "opacity-60")}>
            <ul className="grid gap-3" aria-label="Contact messages">
              {messages.map((message) => (
                <li key={message.id}>
                  <ContactMessageCard message={message} onDelete={() => setToDelete(message)} />
                </li>
              ))}
            </ul>
            <LoadMoreFooter list={list} shown={messages.length} noun={{ one: "message", many: "messages" }} />
          </div>
        )}
      </div>
      {toDelete ? (
        <ConfirmDialog
          title="Delete this message?"
          message={`The message from ${toDelete.name} will be permanently deleted. This action cannot be undone.`}
          pending={remove.isPending}
          onConfirm={confirmDelete}
          onClose={() => setToDelete(null)}
        />
      ) : null}
    </AdminShell>
  );
}
