import { formatBytes, type StorageUsage } from "../../shared/contracts/knowledge.js";
import { LOW_SHARE } from "./usage.js";

// The library against the plan (GET /api/usage's `storage`), as the library's meters and the dashboard say it. Apart
// from the allowances (usage.ts), so the chat's first screen does not carry it.

const count = (n: number) => n.toLocaleString("en-US");

/** One of the library's two limits as its meter shows it: the bytes stored, or the number of files (decision 068). */
export interface StorageLine {
  key: "bytes" | "files";
  /** "Storage", "Files". */
  label: string;
  /** "12.4 MB of 50 MB", "3 of 20 files"; with no limit: "12.4 MB stored", "3 files". */
  text: string;
  /** The share of the limit used, 0 to 1; null when the plan sets no limit (then no bar). */
  shareUsed: number | null;
  /** The meter's value and maximum, in bytes or files (max null: no limit). */
  value: number;
  max: number | null;
}

const shareOf = (used: number, limit: number | null) => (limit === null ? null : limit <= 0 ? 1 : Math.max(0, Math.min(1, used / limit)));

/** The library against the plan, each limit on its own: bytes first, then files. */
export function storageLines(storage: StorageUsage): [StorageLine, StorageLine] {
  const { usedBytes, storageBytes, files, maxFiles } = storage;
  return [
    {
      key: "bytes",
      label: "Storage",
      text: storageBytes === null ? `${formatBytes(usedBytes)} stored` : `${formatBytes(usedBytes)} of ${formatBytes(storageBytes)}`,
      shareUsed: shareOf(usedBytes, storageBytes),
      value: usedBytes,
      max: storageBytes,
    },
    {
      key: "files",
      label: "Files",
      text: maxFiles === null ? `${count(files)} ${files === 1 ? "file" : "files"}` : `${count(files)} of ${count(maxFiles)} files`,
      shareUsed: shareOf(files, maxFiles),
      value: files,
      max: maxFiles,
    },
  ];
}

/** A limit nearly reached: its meter turns amber (the same share as the allowances' LOW_SHARE, used instead of left). */
export const nearlyFull = (line: StorageLine) => line.shareUsed !== null && line.shareUsed > 1 - LOW_SHARE;

/** The library against the plan on one line: "12.4 MB of 50 MB · 3 of 20 files" (the dashboard's plan card). */
export function storageText(storage: StorageUsage): string {
  return storageLines(storage)
    .map((line) => line.text)
    .join(" · ");
}
