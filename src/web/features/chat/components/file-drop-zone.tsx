import { Upload } from "lucide-react";
import { useEffect, useRef, useState } from "react";

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes("Files");

/**
 * Files dragged over the chat: while they are, a drop zone covers the page saying where they go; dropped, they are
 * attached to the message being written. Anything else dragged (text, a link) is left to the browser.
 */
export function FileDropZone({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;

  useEffect(() => {
    if (disabled) {
      depth.current = 0;
      setOver(false);
      return;
    }
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setOver(true);
    };
    const overIt = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      onFilesRef.current(Array.from(event.dataTransfer?.files ?? []));
    };
    document.addEventListener("dragenter", enter);
    document.addEventListener("dragover", overIt);
    document.addEventListener("dragleave", leave);
    document.addEventListener("drop", drop);
    return () => {
      document.removeEventListener("dragenter", enter);
      document.removeEventListener("dragover", overIt);
      document.removeEventListener("dragleave", leave);
      document.removeEventListener("drop", drop);
    };
  }, [disabled]);

  if (!over) return null;
  return (
    <div
      data-testid="file-drop-zone"
      className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-background/70 p-6 backdrop-blur-[1px]"
    >
      <div className="flex w-full max-w-md flex-col items-center gap-2 rounded-2xl border-2 border-dashed border-primary bg-background/95 px-6 py-10 text-center shadow-lg">
        <Upload className="size-8 text-primary" aria-hidden="true" />
        <p className="text-base font-semibold">Drop files to attach them</p>
        <p className="text-sm text-muted-foreground">Documents, text, code and images</p>
      </div>
    </div>
  );
}
