import { describe, expect, it } from "vitest";
import type { KnowledgeFile } from "../../../shared/contracts/knowledge.js";
import { isImageFile, phaseOf, phaseText, refusalOf } from "./chat-files.js";

const file = (over: Partial<KnowledgeFile>): KnowledgeFile => ({
  id: 1,
  name: "a.pdf",
  size: 10,
  type: "application/pdf",
  kind: "pdf",
  status: "queued",
  stage: null,
  progressDone: 0,
  progressTotal: 0,
  error: null,
  retryable: false,
  collectionId: null,
  unsentUntil: null,
  pages: null,
  createdAt: "",
  updatedAt: "",
  ...over,
});

describe("chat files", () => {
  it("takes documents, text, code and the four image types, and refuses others, empty and too large files with the reason", () => {
    for (const name of ["a.pdf", "b.docx", "c.md", "d.txt", "e.html", "f.csv", "g.json", "h.ts", "i.png", "j.JPG", "k.webp", "l.gif"]) {
      expect(refusalOf({ name, size: 10, type: "" }), name).toBeNull();
    }
    expect(refusalOf({ name: "tool.exe", size: 10, type: "application/octet-stream" })).toContain("tool.exe is not a supported file");
    expect(refusalOf({ name: "a.txt", size: 0, type: "text/plain" })).toBe("a.txt is empty.");
    expect(refusalOf({ name: "big.pdf", size: 51 * 1024 * 1024, type: "application/pdf" })).toBe("big.pdf is larger than 50 MB.");
    // A pasted image with no usable name is known by its type.
    expect(refusalOf({ name: "clip", size: 10, type: "image/png" })).toBeNull();
    expect(isImageFile({ name: "clip", type: "image/webp" })).toBe(true);
    expect(isImageFile({ name: "a.txt", type: "text/plain" })).toBe(false);
  });

  it("says where a file stands", () => {
    const chip = { progress: 0.42, done: 0, total: 0, error: null };
    expect(phaseText({ ...chip, phase: "uploading" })).toBe("Uploading 42%");
    expect(phaseText({ ...chip, phase: phaseOf(file({ status: "queued" })) })).toBe("Reading…");
    expect(phaseText({ ...chip, phase: phaseOf(file({ status: "processing", stage: "reading" })) })).toBe("Reading…");
    const indexing = file({ status: "processing", stage: "indexing", progressDone: 3, progressTotal: 10 });
    expect(phaseText({ ...chip, phase: phaseOf(indexing), done: 3, total: 10 })).toBe("Indexing 3 of 10");
    expect(phaseOf(file({ status: "ready" }))).toBe("ready");
    expect(phaseText({ ...chip, phase: phaseOf(file({ status: "failed" })), error: "The PDF has too many pages" })).toBe(
      "Failed: The PDF has too many pages",
    );
  });
});
