import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { CHAT_SHORTCUTS, shortcutKeys } from "../chat-shortcuts.js";
import { useApplePlatform } from "../hooks/use-chat-shortcuts.js";

/** The `?` dialog: every chat shortcut with its keys, ⌘ on Apple devices and Ctrl elsewhere. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const apple = useApplePlatform();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>
            Keys with {apple ? "⌘" : "Ctrl"} work anywhere in the chat; ? and Esc leave text fields alone.
          </DialogDescription>
        </DialogHeader>
        <dl aria-label="Shortcuts" className="grid gap-1 text-sm">
          {CHAT_SHORTCUTS.map((shortcut) => {
            const keys = shortcutKeys(shortcut, apple);
            return (
              <div
                key={shortcut.id}
                data-shortcut={shortcut.id}
                className="flex items-center justify-between gap-4 rounded-md px-2 py-1.5 odd:bg-muted/50"
              >
                <dt>{shortcut.label}</dt>
                <dd className="flex shrink-0 items-center gap-1">
                  {keys.map((key) => (
                    <kbd
                      key={key}
                      className="inline-flex min-w-6 items-center justify-center rounded border border-b-2 bg-background px-1.5 py-0.5 font-sans text-xs font-medium text-foreground"
                    >
                      {key}
                    </kbd>
                  ))}
                </dd>
              </div>
            );
          })}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
