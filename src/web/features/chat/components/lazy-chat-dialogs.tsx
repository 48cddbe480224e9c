import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from "react";

/**
 * The chat's dialogs load when first opened, not with the chat's first screen (issue 15: /chat ≤ 200 KiB of
 * gzip JavaScript): the rename and folder forms bring react-hook-form and zod's resolver. Same names and
 * props as the dialogs themselves. The confirmations and the move dialog (Radix Dialog, decision 021) too, and the
 * knowledge dialog and an attached image at full size (decision 041: Radix Dialog and Checkbox off /chat's first screen).
 */
const Rename = lazy(() => import("./rename-chat-dialog.js").then((m) => ({ default: m.RenameChatDialog })));
const FolderName = lazy(() => import("./folders/folder-name-dialog.js").then((m) => ({ default: m.FolderNameDialog })));
const DeleteChat = lazy(() => import("./delete-chat-dialog.js").then((m) => ({ default: m.DeleteChatDialog })));
const MoveChat = lazy(() => import("./folders/move-chat-dialog.js").then((m) => ({ default: m.MoveChatDialog })));
const DeleteFolder = lazy(() => import("./folders/delete-folder-dialog.js").then((m) => ({ default: m.DeleteFolderDialog })));
const Knowledge = lazy(() => import("./chat-knowledge-dialog.js").then((m) => ({ default: m.KnowledgeDialog })));
const FullImage = lazy(() => import("./image-dialog.js").then((m) => ({ default: m.ImageDialog })));
const Shortcuts = lazy(() => import("./shortcuts-dialog.js").then((m) => ({ default: m.ShortcutsDialog })));

/** A lazy dialog drawn as soon as its code is there (nothing in its place before). */
function suspended<P extends object>(Dialog: ComponentType<P>) {
  return function Suspended(props: P) {
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

export const RenameChatDialog = suspended(Rename);
export const FolderNameDialog = suspended(FolderName);
export const DeleteChatDialog = suspended(DeleteChat);
export const MoveChatDialog = suspended(MoveChat);
export const DeleteFolderDialog = suspended(DeleteFolder);
export const KnowledgeDialog = suspended(Knowledge);
export const ImageDialog = suspended(FullImage);

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
