import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { docxParts, makeDocx, makePdf } from "../../../../../tests/helpers/make-pdf.js";
import {
  DOCX_MIME,
  detectFile,
  EMPTY_FILE_MESSAGE,
  isImageKind,
  NOT_A_DOCX_MESSAGE,
  NOT_A_PDF_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  UNSUPPORTED_FILE_MESSAGE,
} from "./file-kind.js";

const text = (s: string) => new TextEncoder().encode(s);
const bytes = (...values: number[]) => new Uint8Array(values);

const PNG = bytes(
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  0,
  1,
  0,
  0,
  0,
  1,
  8,
  6,
  0,
  0,
  0,
);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0);
const GIF = new Uint8Array([...text("GIF89a"), 1, 0, 1, 0, 0x80, 0, 0]);
const WEBP = new Uint8Array([...text("RIFF"), 0x24, 0, 0, 0, ...text("WEBPVP8 "), 0x18, 0, 0, 0]);

describe("detectFile: binary kinds by their signature, whatever the name", () => {
  it("knows a PDF, a DOCX and each image by its bytes", async () => {
    expect(detectFile(await makePdf(["one page"]), "report.bin")).toEqual({ kind: "pdf", mime: "application/pdf" });
    expect(detectFile(makeDocx([{ text: "Hello" }]), "notes")).toEqual({ kind: "docx", mime: DOCX_MIME });
    expect(detectFile(PNG, "a.png")).toEqual({ kind: "image", mime: "image/png" });
    expect(detectFile(JPEG, "a.jpg")).toEqual({ kind: "image", mime: "image/jpeg" });
    expect(detectFile(GIF, "a.gif")).toEqual({ kind: "image", mime: "image/gif" });
    expect(detectFile(WEBP, "a.webp")).toEqual({ kind: "image", mime: "image/webp" });
    // The bytes win over the name: a PNG named .jpg is a PNG; a PDF named .txt is a PDF.
    expect(detectFile(PNG, "photo.jpg")).toEqual({ kind: "image", mime: "image/png" });
    expect(detectFile(await makePdf(["x"]), "notes.txt")).toMatchObject({ kind: "pdf" });
  });

  it("refuses a name that promises a binary kind the bytes are not", () => {
    expect(detectFile(text("just some words"), "photo.png")).toEqual({ error: NOT_AN_IMAGE_MESSAGE });
    expect(detectFile(text("<svg></svg>"), "photo.jpeg")).toEqual({ error: NOT_AN_IMAGE_MESSAGE });
    // A truncated PNG signature is no image either.
    expect(detectFile(PNG.subarray(0, 8), "a.png")).toEqual({ error: NOT_AN_IMAGE_MESSAGE });
    expect(detectFile(text("%PDF is what I wish I were"), "paper.pdf")).toEqual({ error: NOT_A_PDF_MESSAGE });
    expect(detectFile(text("plain words"), "letter.docx")).toEqual({ error: NOT_A_DOCX_MESSAGE });
  });

  it("reads a text file that merely mentions %PDF- as text, not as a PDF", () => {
    expect(detectFile(text("A PDF starts with %PDF-1.7 on its first line."), "notes.md")).toEqual({
      kind: "markdown",
      mime: "text/markdown",
    });
  });

  it("takes a zip as a Word document only when its [Content_Types].xml names WordprocessingML", () => {
    const parts = docxParts([{ text: "x" }]);
    const sheet = zipSync({
      ...parts,
      "[Content_Types].xml": text(
        '<Types><Override ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      ),
    });
    expect(detectFile(sheet, "book.xlsx")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
    const { "[Content_Types].xml": _, ...withoutTypes } = parts;
    expect(detectFile(zipSync(withoutTypes), "doc.docx")).toEqual({ error: NOT_A_DOCX_MESSAGE });
    expect(detectFile(zipSync({ "a.txt": text("hi") }), "archive.zip")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
  });
});

describe("detectFile: text only when it is UTF-8 without NUL, then the extension picks the kind", () => {
  it("picks markdown, html, csv, json, code and text", () => {
    expect(detectFile(text("# Title"), "README.md")).toEqual({ kind: "markdown", mime: "text/markdown" });
    expect(detectFile(text("<p>hi</p>"), "page.HTML")).toEqual({ kind: "html", mime: "text/html" });
    expect(detectFile(text("a,b\n1,2"), "data.csv")).toEqual({ kind: "csv", mime: "text/csv" });
    expect(detectFile(text('{"a": [1, 2]}'), "data.json")).toEqual({ kind: "json", mime: "application/json" });
    expect(detectFile(text("def f():\n  return 1"), "main.py")).toEqual({ kind: "code", mime: "text/plain" });
    expect(detectFile(text("FROM node:24"), "Dockerfile")).toEqual({ kind: "code", mime: "text/plain" });
    expect(detectFile(text("héllo wörld ✓"), "notes.txt")).toEqual({ kind: "text", mime: "text/plain" });
    expect(detectFile(text("no extension at all"), "LICENSE")).toEqual({ kind: "text", mime: "text/plain" });
  });

  it("reads a .json that does not parse (comments) as plain text", () => {
    expect(detectFile(text('{ // comment\n "a": 1 }'), "tsconfig.json")).toEqual({ kind: "text", mime: "text/plain" });
  });

  it("refuses binary that is not a known kind, invalid UTF-8, text with NUL, and an empty file", () => {
    expect(detectFile(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0), "program")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
    expect(detectFile(bytes(0x68, 0x69, 0xff, 0xfe), "notes.txt")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
    expect(detectFile(text("a\u0000b"), "notes.txt")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
    // UTF-16 text holds NUL bytes: not read as UTF-8 text.
    expect(detectFile(new Uint8Array(Buffer.from("\ufeffhello", "utf16le")), "notes.txt")).toEqual({ error: UNSUPPORTED_FILE_MESSAGE });
    expect(detectFile(new Uint8Array(0), "notes.txt")).toEqual({ error: EMPTY_FILE_MESSAGE });
    expect(detectFile(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0), "old.doc")).toMatchObject({
      error: expect.stringContaining(".docx"),
    });
  });

  it("says which kinds are images", () => {
    expect(isImageKind("image")).toBe(true);
    for (const kind of ["pdf", "docx", "markdown", "text", "html", "csv", "json", "code"] as const) expect(isImageKind(kind)).toBe(false);
  });
});
