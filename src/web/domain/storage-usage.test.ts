import { describe, expect, it } from "vitest";
import type { StorageUsage } from "../../shared/contracts/knowledge.js";
import { nearlyFull, storageLines, storageText } from "./storage-usage.js";

const MB = 1024 * 1024;
const storage = (over: Partial<StorageUsage>): StorageUsage => ({
  usedBytes: 0,
  files: 0,
  storageBytes: 50 * MB,
  maxFiles: 20,
  maxFileBytes: 50 * MB,
  ...over,
});

describe("the library's two meters (decision 068)", () => {
  it("a small file count: the files' meter follows the files, the storage's the bytes, each with its own words", () => {
    // 4 files of 20 (20 %) holding 12.3 MB of 50 MB (about 25 %), then 19 of 20 files holding a little.
    const [bytes, files] = storageLines(storage({ usedBytes: Math.round(12.3 * MB), files: 4 }));
    expect(bytes).toMatchObject({ key: "bytes", label: "Storage", text: "12.3 MB of 50 MB", value: Math.round(12.3 * MB), max: 50 * MB });
    expect(bytes.shareUsed).toBeCloseTo(12.3 / 50, 5);
    expect(files).toMatchObject({ key: "files", label: "Files", text: "4 of 20 files", shareUsed: 0.2, value: 4, max: 20 });

    const [fewBytes, manyFiles] = storageLines(storage({ usedBytes: 100 * 1024, files: 19 }));
    expect(fewBytes.text).toBe("100 KB of 50 MB");
    expect(fewBytes.shareUsed).toBeLessThan(0.01);
    expect(nearlyFull(fewBytes)).toBe(false);
    expect(manyFiles).toMatchObject({ text: "19 of 20 files", shareUsed: 0.95 });
    expect(nearlyFull(manyFiles)).toBe(true);
  });

  it("full bytes with few files: the storage's meter is full, the files' is not", () => {
    const [bytes, files] = storageLines(storage({ usedBytes: 50 * MB, files: 2 }));
    expect({ bytes: bytes.shareUsed, full: nearlyFull(bytes) }).toEqual({ bytes: 1, full: true });
    expect({ files: files.shareUsed, full: nearlyFull(files) }).toEqual({ files: 0.1, full: false });
  });

  it("past a limit an admin lowered: the share stops at 1", () => {
    const [bytes, files] = storageLines(storage({ usedBytes: 80 * MB, storageBytes: 40 * MB, files: 30, maxFiles: 10 }));
    expect([bytes.shareUsed, files.shareUsed]).toEqual([1, 1]);
    expect(bytes.text).toBe("80 MB of 40 MB");
  });

  it("a limit the plan does not set has words and no bar; one file is singular", () => {
    const [bytes, files] = storageLines(storage({ usedBytes: 1000, files: 1, storageBytes: null, maxFiles: null }));
    expect(bytes).toMatchObject({ text: "1000 bytes stored", shareUsed: null, max: null });
    expect(files).toMatchObject({ text: "1 file", shareUsed: null, max: null });
    expect(nearlyFull(bytes)).toBe(false);
    const [, oneLimit] = storageLines(storage({ files: 3, maxFiles: null }));
    expect(oneLimit.text).toBe("3 files");
  });

  it("the dashboard's one line is the two meters' words", () => {
    expect(storageText(storage({ usedBytes: Math.round(12.3 * MB), files: 4 }))).toBe("12.3 MB of 50 MB · 4 of 20 files");
    expect(storageText(storage({ usedBytes: 0, files: 1234, storageBytes: null, maxFiles: null }))).toBe("0 bytes stored · 1,234 files");
  });
});
