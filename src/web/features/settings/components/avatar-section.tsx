import { Camera, Trash2 } from "lucide-react";
import { type ChangeEvent, useRef } from "react";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { UserAvatar } from "../../../components/user-avatar.js";
import { notify } from "../../../lib/notify.js";
import { IMAGE_ACCEPT, pickImageFile } from "../../../lib/pick-image-file.js";
import { useRemoveAvatar, useUploadAvatar } from "../api.js";

/** Photo with initials fallback, a Change button (PNG, JPEG or WebP up to 2 MB) and Remove. */
export function AvatarSection({ user }: { user: PublicUser }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const busy = upload.isPending || remove.isPending;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = pickImageFile(event, (message) => notify.error("Update failed", message), "photo");
    if (file) upload.mutate(file);
  };

  return (
    <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
      <UserAvatar user={user} className="size-20" fallbackClassName="text-2xl" />
      <div className="grid gap-2">
        <div className="flex flex-wrap gap-2">
          <label htmlFor="avatar-file" className="sr-only">
            Profile photo
          </label>
          <input ref={inputRef} id="avatar-file" type="file" accept={IMAGE_ACCEPT} className="hidden" onChange={onFile} />
          <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={busy}>
            {upload.isPending ? <ButtonSpinner /> : <Camera aria-hidden="true" />}
            {upload.isPending ? "Uploading..." : "Change"}
          </Button>
          {user.avatarUrl ? (
            <Button variant="ghost" onClick={() => remove.mutate()} disabled={busy}>
              {remove.isPending ? <ButtonSpinner /> : <Trash2 aria-hidden="true" />}
              {remove.isPending ? "Removing..." : "Remove"}
            </Button>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground">PNG, JPEG or WebP, up to 2 MB.</p>
      </div>
    </div>
  );
}
