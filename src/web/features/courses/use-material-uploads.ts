import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { filesApi } from "../../../shared/contracts/knowledge.js";
import { endpointKey } from "../../lib/api-client.js";
import { failureText } from "../../lib/failure-text.js";
import { uploadMaterialFile } from "./material-api.js";

/** A file on its way to the library from the dialog: its share sent, or the server's refusal. */
export type PendingUpload = { key: number; name: string; share: number; error: string | null };

/**
 * Uploads from the "From my material" dialog: each file goes to the library at once (no collection); once stored it
 * leaves this list, is chosen (`onStored`) and the library list (polled while it is read) shows its state.
 * A refused file stays here with the server's words until dismissed. Leaving the dialog stops the uploads in flight.
 */
export function useMaterialUploads(onStored: (fileId: number) => void) {
  const client = useQueryClient();
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextKey = useRef(1);
  const stored = useRef(onStored);
  stored.current = onStored;

  useEffect(() => {
    const inFlight = controllers.current;
    return () => {
      for (const controller of inFlight.values()) controller.abort();
    };
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const change = (key: number, patch: Partial<PendingUpload>) =>
        setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));
      for (const file of files) {
        const key = nextKey.current++;
        const controller = new AbortController();
        controllers.current.set(key, controller);
        setUploads((list) => [...list, { key, name: file.name, share: 0, error: null }]);
        uploadMaterialFile(file, (share) => change(key, { share }), controller.signal)
          .then(async (saved) => {
            await client.invalidateQueries({ queryKey: endpointKey(filesApi.list) });
            stored.current(saved.id);
            setUploads((list) => list.filter((upload) => upload.key !== key));
          })
          .catch((error: unknown) => {
            if (controller.signal.aborted) return;
            change(key, { error: `${failureText(error, "The file could not be uploaded.")} Try another file, or try again.` });
          })
          .finally(() => controllers.current.delete(key));
      }
    },
    [client],
  );

  const dismiss = (key: number) => setUploads((list) => list.filter((upload) => upload.key !== key));
  const uploading = uploads.some((upload) => upload.error === null);
  return { uploads, add, dismiss, uploading };
}
