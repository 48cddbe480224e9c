import { type ComponentProps, lazy, Suspense, useState } from "react";

/**
 * The chat's dialogs load when first opened, not with the chat's first screen (issue 15: /chat ≤ 200 KiB of
 * gzip JavaScript): the rename and folder forms bring react-hook-form and zod's resolver. Same names and
 * props as the dialogs themselves. The confirmations and the move dialog (Radix Dialog, decision 021) too.
 */
const Rename = lazy(() => import("./rename-chat-dialog.js").then((m) => ({ default: m.RenameChatDialog })));
const FolderName = lazy(() => import("./folders/folder-name-dialog.js").then((m) => ({ default: m.FolderNameDialog })));
const DeleteChat = lazy(() => import("./delete-chat-dialog.js").then((m) => ({ default: m.DeleteChatDialog })));
const MoveChat = lazy(() => import("./folders/move-chat-dialog.js").then((m) => ({ default: m.MoveChatDialog })));
const DeleteFolder = lazy(() => import("./folders/delete-folder-dialog.js").then((m) => ({ default: m.DeleteFolderDialog })));
const Shortcuts = lazy(() => import("./shortcuts-dialog.js").then((m) => ({ default: m.ShortcutsDialog })));

export function RenameChatDialog(props: ComponentProps<typeof Rename>) {
  return (
    <Suspense fallback={null}>
      <Rename {...props} />
    </Suspense>
  );
}

export function FolderNameDialog(props: ComponentProps<typeof FolderName>) {
  return (
    <Suspense fallback={null}>
      <FolderName {...props} />
    </Suspense>
  );
}

export function DeleteChatDialog(props: ComponentProps<typeof DeleteChat>) {
  return (
    <Suspense fallback={null}>
      <DeleteChat {...props} />
    </Suspense>
  );
}

export function MoveChatDialog(props: ComponentProps<typeof MoveChat>) {
  return (
    <Suspense fallback={null}>
      <MoveChat {...props} />
    </Suspense>
  );
}

export function DeleteFolderDialog(props: ComponentProps<typeof DeleteFolder>) {
  return (
    <Suspense fallback={null}>
      <DeleteFolder {...props} />
    </Suspense>
  );
}

/** Mounted with the page but closed: its code loads the first time it opens, and it stays mounted after. */
export function ShortcutsDialog(props: ComponentProps<typeof Shortcuts>) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Shortcuts {...props} />
    </Suspense>
  );
}
