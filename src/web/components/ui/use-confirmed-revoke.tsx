import { type ReactNode, useState } from "react";
import { errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { ConfirmDialog } from "./confirm-dialog.js";

/** A mutation that revokes one item by its key (a React Query `useMutation` result fits). */
interface RevokeMutation<K> {
  mutate: (key: K, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
}

/**
 * Revoke one item of a list (a share link, an API token), asked first: `ask(item)` opens "Revoke this …?" with
 * `message(item)`; Revoke calls the mutation and the dialog stays open (busy) until it answers; the toasts say what
 * happened (`done(item)`: title and text) or why it failed (`failed`, with the server's words). Render `dialog`.
 */
export function useConfirmedRevoke<T, K>(options: {
  mutation: RevokeMutation<K>;
  keyOf: (item: T) => K;
  title: string;
  message: (item: T) => string;
  done: (item: T) => [title: string, text: string];
  failed: string;
}): { ask: (item: T) => void; dialog: ReactNode } {
  const { mutation, keyOf, title, message, done, failed } = options;
  const [item, setItem] = useState<T | null>(null);
  const confirm = () => {
    if (item === null) return;
    mutation.mutate(keyOf(item), {
      onSuccess: () => {
        notify.success(...done(item));
        setItem(null);
      },
      onError: (error) => notify.error(failed, errorMessage(error)),
    });
  };
  const dialog =
    item === null ? null : (
      <ConfirmDialog
        title={title}
        message={message(item)}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={mutation.isPending}
        onConfirm={confirm}
        onClose={() => setItem(null)}
      />
    );
  return { ask: setItem, dialog };
}
