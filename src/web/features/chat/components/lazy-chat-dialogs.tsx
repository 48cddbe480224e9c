import { type ComponentProps, lazy, Suspense, useState } from "react";

/**
 * The chat's dialogs load when first opened, not with the chat's first screen (issue 15: /chat ≤ 200 KiB of
 * gzip JavaScript): the rename and folder forms bring react-hook-form and zod's resolver. Same names and
 * props as the dialogs themselves.
 */
const Rename = lazy(() => import("./rename-chat-dialog.js").then((m) => ({ default: m.RenameChatDialog })));
const FolderName = lazy(() => import("./folders/folder-name-dialog.js").then((m) => ({ default: m.FolderNameDialog })));
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
