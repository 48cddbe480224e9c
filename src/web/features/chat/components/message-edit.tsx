import { Pencil } from "lucide-react";
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { MESSAGE_MAX_CHARS } from "../../../../shared/constants.js";
import { Button } from "../../../components/ui/button.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { BranchSwitcher, type MaybeBranched } from "./branch-switcher.js";
import { useKeepRow } from "./keep-row.js";
import { useMessageActions } from "./message-actions.js";

// An edit the server refused before storing anything comes back into its editor. The message was hidden
// meanwhile (its new version took its place), so its text waits here until the message shows again.
const returned = new Map<number, string>();
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The inline editor: Save & submit sends the new version, Cancel (or Escape) leaves the message as it was. */
function MessageEditor({ initial, onSave, onCancel }: { initial: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const empty = text.trim().length === 0;
  // Opening another chat, leaving the page or closing the tab with the message changed asks first.
  useUnsavedChanges({ dirty: text !== initial });

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (!empty) onSave(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      save();
    }
  };

  return (
    <form aria-label="Edit message" className="flex w-[min(40rem,calc(100vw-5.5rem))] flex-col gap-2" onSubmit={save}>
      <Textarea
        ref={boxRef}
        aria-label="Edited message"
        aria-invalid={empty || undefined}
        aria-describedby={empty ? hintId : undefined}
        value={text}
        maxLength={MESSAGE_MAX_CHARS}
        rows={3}
        className="max-h-80 resize-y bg-background text-sm leading-relaxed"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="flex items-center justify-end gap-2">
        {empty ? (
          <p id={hintId} className="mr-auto text-xs text-destructive">
            Type a message, or cancel.
          </p>
        ) : null}
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={empty}>
          Save & submit
        </Button>
      </div>
    </form>
  );
}

/**
 * A user's message (`children`: its bubble) with its versions switcher and an Edit action, which swaps the bubble
 * for an inline editor. The new version is answered like a send; the earlier exchange stays as a branch.
 */
export function EditableUserMessage({ message, children }: { message: MaybeBranched; children: ReactNode }) {
  const actions = useMessageActions();
  const [draft, setDraft] = useState<string | null>(null);
  const refused = useSyncExternalStore(subscribe, () => returned.get(message.id) ?? null);
  const editing = draft ?? refused;
  // What is typed in the editor lives in its row: the virtual list keeps the row drawn while it is scrolled away.
  useKeepRow(editing !== null && actions ? String(message.id) : null);
  const close = () => {
    setDraft(null);
    if (returned.delete(message.id)) changed();
  };
  // Stored messages only (an optimistic one has a negative id until the server names it).
  const canEdit = actions !== null && !actions.busy && message.id > 0;

  if (editing !== null && actions) {
    const save = async (text: string) => {
      close();
      if (!(await actions.edit(message, text))) {
        returned.set(message.id, text);
        changed();
      }
    };
    return <MessageEditor initial={editing} onSave={(text) => void save(text)} onCancel={close} />;
  }
  const branched = (message.branch?.count ?? 1) > 1;
  return (
    <>
      {children}
      {canEdit || (actions && branched) ? (
        <div className="flex items-center gap-0.5">
          <BranchSwitcher message={message} />
          {canEdit ? (
            <Button
              variant="ghost"
              size="icon"
              className="size-7 text-muted-foreground hover:text-foreground"
              aria-label="Edit message"
              title="Edit message"
              onClick={() => setDraft(message.content)}
            >
              <Pencil aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
