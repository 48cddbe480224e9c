import { useCallback, useEffect, useRef, useState } from "react";
import type { KnowledgeFile } from "../../../../shared/contracts/knowledge.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { CHAT_FILES_MAX, type ChipPhase, isImageFile, phaseOf, refusalOf } from "../chat-files.js";
import { deleteChatFile, isFinal, readChatFile, uploadChatFile } from "../files-api.js";

/** How often a file still being read is asked about. */
export const FILE_POLL_MS = 800;

/** A file on the message being written: uploaded at once to the library (no collection), then read there. */
export type ChatFileChip = {
  key: string;
  name: string;
  size: number;
  image: boolean;
  /** The image itself (an object URL), for the chip's thumbnail. */
  previewUrl: string | null;
  phase: ChipPhase;
  /** Upload progress, 0 to 1. */
  progress: number;
  /** Indexing: pieces done of all. */
  done: number;
  total: number;
  fileId: number | null;
  /** As the server found them from the bytes, once uploaded. */
  type: string;
  kind: string | null;
  error: string | null;
};

let serial = 0;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        window.clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * The files attached to the message being written (issue 30): each uploads at once to POST /api/files, then its
 * reading is polled until ready or failed. At most CHAT_FILES_MAX; an unfit file is refused with the reason.
 * A file taken off before sending was uploaded only for this message, so it is deleted from the library too (also
 * when the composer goes away with it); a sent one stays, named by its message.
 */
export function useAttachments() {
  const [files, setFiles] = useState<ChatFileChip[]>([]);
  const filesRef = useRef(files);
  filesRef.current = files;
  const controllers = useRef(new Map<string, AbortController>());

  const patch = useCallback((key: string, change: Partial<ChatFileChip>) => {
    setFiles((current) => current.map((f) => (f.key === key ? { ...f, ...change } : f)));
  }, []);

  const fromServer = useCallback(
    (key: string, stored: KnowledgeFile) =>
      patch(key, {
        fileId: stored.id,
        type: stored.type,
        kind: stored.kind,
        phase: phaseOf(stored),
        done: stored.progressDone,
        total: stored.progressTotal,
        error: stored.error,
        progress: 1,
      }),
    [patch],
  );

  const start = useCallback(
    async (key: string, file: File) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      const { signal } = controller;
      try {
        let stored = await uploadChatFile(file, (progress) => patch(key, { progress }), signal);
        fromServer(key, stored);
        while (!isFinal(stored)) {
          await sleep(FILE_POLL_MS, signal);
          stored = await readChatFile(stored.id, signal);
          fromServer(key, stored);
        }
      } catch (error) {
        if (signal.aborted) return;
        patch(key, { phase: "failed", error: errorMessage(error) });
      } finally {
        if (controllers.current.get(key) === controller) controllers.current.delete(key);
      }
    },
    [fromServer, patch],
  );

  /** Files chosen, dropped or pasted. */
  const addFiles = useCallback(
    (chosen: File[]) => {
      if (chosen.length === 0) return;
      const room = CHAT_FILES_MAX - filesRef.current.length;
      if (chosen.length > room) notify.error("Cannot attach file", `Attach at most ${CHAT_FILES_MAX} files to a message.`);
      const added: { chip: ChatFileChip; file: File }[] = [];
      for (const file of chosen.slice(0, Math.max(0, room))) {
        const reason = refusalOf(file);
        if (reason) {
          notify.error("Cannot attach file", reason);
          continue;
        }
        serial += 1;
        const image = isImageFile(file);
        added.push({
          file,
          chip: {
            key: `f${serial}`,
            name: file.name,
            size: file.size,
            image,
            previewUrl: image ? URL.createObjectURL(file) : null,
            phase: "uploading",
            progress: 0,
            done: 0,
            total: 0,
            fileId: null,
            type: file.type,
            kind: null,
            error: null,
          },
        });
      }
      if (added.length === 0) return;
      setFiles((current) => [...current, ...added.map((a) => a.chip)]);
      for (const { chip, file } of added) void start(chip.key, file);
    },
    [start],
  );

  const drop = useCallback((chip: ChatFileChip) => {
    controllers.current.get(chip.key)?.abort();
    controllers.current.delete(chip.key);
    if (chip.previewUrl) URL.revokeObjectURL(chip.previewUrl);
    if (chip.fileId !== null) void deleteChatFile(chip.fileId).catch(() => undefined);
  }, []);

  /** The x on a chip: stops its upload or reading and deletes the file it made. */
  const remove = useCallback(
    (key: string) => {
      const chip = filesRef.current.find((f) => f.key === key);
      if (chip) drop(chip);
      setFiles((current) => current.filter((f) => f.key !== key));
    },
    [drop],
  );

  // Leaving the chat with files on the message: they were for it only.
  useEffect(
    () => () => {
      for (const chip of filesRef.current) drop(chip);
    },
    [drop],
  );

  /**
   * Takes the files for sending (the list empties); `restore` puts them back if the message was refused, `sent`
   * lets their thumbnails go once the message is stored.
   */
  const take = () => {
    const taken = files;
    filesRef.current = [];
    setFiles([]);
    return {
      files: taken,
      restore: () =>
        setFiles((current) => {
          const next = current.length > 0 ? current : taken;
          filesRef.current = next;
          return next;
        }),
      sent: () => {
        for (const chip of taken) if (chip.previewUrl) URL.revokeObjectURL(chip.previewUrl);
      },
    };
  };

  const pending = files.some((f) => f.phase !== "ready" && f.phase !== "failed");
  const failed = files.some((f) => f.phase === "failed");
  return { files, full: files.length >= CHAT_FILES_MAX, pending, failed, addFiles, remove, take };
}
