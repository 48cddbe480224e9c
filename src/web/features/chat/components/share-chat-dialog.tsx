import { Link2 } from "lucide-react";
import { useState } from "react";
import { ShareLinksList } from "../../../components/share-links/share-links-list.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { useCreateShareLink, useShareLinks } from "../../../domain/share-links.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";

/**
 * "Share link" (issue 33): a read-only snapshot of the branch shown now, at a link anyone can open. Here the owner makes
 * one (with or without their display name), copies it, updates its snapshot or revokes it; this chat's links are listed.
 */
export function ShareChatDialog({ chatId, open, onOpenChange }: { chatId: number; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [showAuthor, setShowAuthor] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const links = useShareLinks(chatId);
  const create = useCreateShareLink();
  const make = () => {
    setRefused(null);
    create.mutate(
      { chatId, showAuthor },
      {
        onSuccess: ({ url }) => {
          notify.success("Link created", "Copy it below and send it to anyone.");
          void navigator.clipboard?.writeText(url).catch(() => undefined);
        },
        onError: (error) => setRefused(errorMessage(error)),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Share link</DialogTitle>
          <DialogDescription>
            Anyone with the link can read this chat as it is now (the branch shown), without an account. Later messages are not shared
            unless you update the link. Attachments show their names only.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          <SwitchField
            label="Show my name"
            description="Your display name appears on the shared page. Off: the page names nobody."
            checked={showAuthor}
            onChange={setShowAuthor}
          />
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={make} disabled={create.isPending}>
              {create.isPending ? <ButtonSpinner /> : <Link2 aria-hidden="true" />}
              Create link
            </Button>
            {refused ? (
              <p role="alert" className="text-sm text-destructive">
                {refused}
              </p>
            ) : null}
          </div>
          <section className="grid gap-2" aria-labelledby="chat-share-links">
            <h3 id="chat-share-links" className="text-sm font-medium">
              This chat's links
            </h3>
            <ShareLinksList list={links} empty="This chat has no share links yet." />
          </section>
        </div>
      </DialogContent>
    </Dialog>
  );
}
