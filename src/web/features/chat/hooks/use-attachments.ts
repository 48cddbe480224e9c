import { type ChangeEvent, useState } from "react";
import { ATTACHMENTS, ATTACHMENTS_TOO_LONG } from "../../../../shared/constants.js";
import { notify } from "../../../lib/notify.js";
import { type PendingAttachment, readAttachment } from "../read-attachment.js";

/** The text files attached to the message being written: at most ATTACHMENTS.maxFiles, each checked on the way in. */
export function useAttachments() {
  const [files, setFiles] = useState<PendingAttachment[]>([]);

  /** The hidden file input's change: read each chosen file, refuse the unfit ones with the reason. */
  const add = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = "";
    const room = ATTACHMENTS.maxFiles - files.length;
    if (chosen.length > room) notify.error("Cannot attach file", `Attach at most ${ATTACHMENTS.maxFiles} files to a message.`);
    const added: PendingAttachment[] = [];
    // The message's files together have a cap too (the server checks it again): a file past it is left out now.
    let total = files.reduce((sum, f) => sum + f.content.length, 0);
    for (const file of chosen.slice(0, Math.max(0, room))) {
      const result = await readAttachment(file);
      if ("reason" in result) notify.error("Cannot attach file", result.reason);
      else if (total + result.attachment.content.length > ATTACHMENTS.maxTotalChars)
        notify.error("Cannot attach file", `${ATTACHMENTS_TOO_LONG}: "${file.name}" was not attached.`);
      else {
        total += result.attachment.content.length;
        added.push(result.attachment);
      }
    }
    if (added.length > 0) setFiles((current) => [...current, ...added].slice(0, ATTACHMENTS.maxFiles));
  };

  const remove = (key: string) => setFiles((current) => current.filter((f) => f.key !== key));

  /** Takes the files for sending (the list empties); `restore` puts them back if the message was refused. */
  const take = () => {
    const taken = files;
    setFiles([]);
    return { files: taken, restore: () => setFiles((current) => (current.length > 0 ? current : taken)) };
  };

  return { files, full: files.length >= ATTACHMENTS.maxFiles, add, remove, take };
}
