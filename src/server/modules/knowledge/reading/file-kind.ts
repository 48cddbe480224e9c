/**
 * What an uploaded file is, told by its bytes (issue 30: "type by magic bytes, never by name"). Binary formats are
 * known only by their signature; a file without one is text only when it is valid UTF-8 without NUL, and only then
 * does its name's extension choose among the text kinds. A name that promises a binary kind the bytes do not hold
 * (an image, a PDF, a Word document) is refused, so nothing is read as what it only claims to be.
 */
import { isUtf8 } from "node:buffer";
import { unzipSync } from "fflate";

export type FileKind = "pdf" | "docx" | "markdown" | "text" | "html" | "csv" | "json" | "code" | "image";
/** `mime`: the type the bytes are, e.g. application/pdf, image/png, text/markdown. */
export type DetectedFile = { kind: FileKind; mime: string };

export const UNSUPPORTED_FILE_MESSAGE =
  "This file type is not supported. Attach a PDF, Word (.docx), text, Markdown, HTML, CSV, JSON, code file or a PNG, JPEG, WebP or GIF image.";
export const NOT_AN_IMAGE_MESSAGE = "This file is not a valid image. Attach a PNG, JPEG, WebP or GIF image.";
export const NOT_A_PDF_MESSAGE = "This file is not a valid PDF.";
export const NOT_A_DOCX_MESSAGE = "This file is not a valid Word (.docx) document.";
export const EMPTY_FILE_MESSAGE = "This file is empty.";
const OLD_WORD_MESSAGE = "Old Word (.doc) files are not supported. Save it as .docx and attach it again.";

export const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** JSON is checked by parsing up to this size here (a few ms); a larger .json is taken as JSON unparsed. */
export const JSON_PARSE_HERE_BYTES = 512 * 1024;
/** [Content_Types].xml is a few KB; one claiming more is not inflated here. */
const CONTENT_TYPES_MAX_BYTES = 1024 * 1024;
/** A real [Content_Types].xml deflates to a few hundred bytes; 16 KB inflates to at most about 16 MB, tens of milliseconds. */
const CONTENT_TYPES_MAX_COMPRESSED = 16 * 1024;

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "jpe", "jfif", "webp", "gif"]);
const MARKDOWN_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd", "mdx"]);
const HTML_EXTENSIONS = new Set(["html", "htm", "xhtml"]);
const CSV_EXTENSIONS = new Map([
  ["csv", "text/csv"],
  ["tsv", "text/tab-separated-values"],
]);
const CODE_EXTENSIONS = new Set(
  (
    "js mjs cjs jsx ts mts cts tsx py pyi rb go rs java kt kts scala groovy c h cc cpp cxx hh hpp hxx cs fs swift m mm " +
    "php pl pm r jl lua dart ex exs erl hrl clj cljs hs ml mli elm vue svelte astro sh bash zsh fish ps1 bat cmd sql " +
    "graphql gql proto css scss sass less styl xml xsl yaml yml toml ini cfg conf env properties gradle cmake make mk " +
    "dockerfile tf hcl nix zig v sol asm s tex bib rst adoc org"
  ).split(" "),
);
const CODE_NAMES = new Set(["dockerfile", "makefile", "gemfile", "rakefile", "procfile", "jenkinsfile", "vagrantfile"]);

function extensionOf(name: string): string {
  const base = name.trim().toLowerCase().split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return CODE_NAMES.has(base) ? "dockerfile" : "";
  return base.slice(dot + 1);
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

function imageMime(bytes: Uint8Array): string | null {
  // PNG: the 8-byte signature, then the IHDR chunk every PNG starts with.
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && startsWith(bytes, ascii("IHDR"), 12)) return "image/png";
  // JPEG: SOI then a marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 3) return "image/jpeg";
  if ((startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) && bytes.length >= 13) return "image/gif";
  // WebP: a RIFF container of form WEBP, with a VP8/VP8L/VP8X chunk.
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8) && startsWith(bytes, ascii("VP8"), 12)) return "image/webp";
  return null;
}

function isPdf(bytes: Uint8Array): boolean {
  // At the very start: readers tolerate junk before it, but a text file that quotes "%PDF-" is not a PDF.
  return startsWith(bytes, ascii("%PDF-"));
}

/** A zip whose [Content_Types].xml names a WordprocessingML part; only that small entry is inflated. */
function isDocx(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return false;
  try {
    const files = unzipSync(bytes, {
      // The compressed size is bounded too (issue 30 review): fflate decodes a whole entry whatever size it declares, so
      // a tiny declared size over megabytes of deflated zeros would hold the request's thread for seconds.
      filter: (file) =>
        file.name === "[Content_Types].xml" && file.originalSize <= CONTENT_TYPES_MAX_BYTES && file.size <= CONTENT_TYPES_MAX_COMPRESSED,
    });
    const types = files["[Content_Types].xml"];
    if (!types || types.length > CONTENT_TYPES_MAX_BYTES) return false;
    return new TextDecoder().decode(types).includes("wordprocessingml");
  } catch {
    return false;
  }
}

/** Checked without decoding (Node's isUtf8 is simdutf: milliseconds for 50 MB, no string made). */
function isUtf8Text(bytes: Uint8Array): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}

function parsesAsJson(bytes: Uint8Array): boolean {
  if (bytes.length > JSON_PARSE_HERE_BYTES) return true;
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * By magic bytes, never by name alone: PDF, DOCX (a zip whose [Content_Types].xml names wordprocessingml), PNG,
 * JPEG, WebP and GIF by signature; otherwise text only if it is valid UTF-8 with no NUL, and then the name's
 * extension picks markdown, html, csv, json (only when it parses; a .json that does not, say one with comments,
 * is plain text), code or text. Anything else is `{ error }`, a sentence for the user.
 */
export function detectFile(bytes: Uint8Array, name: string): DetectedFile | { error: string } {
  if (bytes.length === 0) return { error: EMPTY_FILE_MESSAGE };
  const extension = extensionOf(name);

  const image = imageMime(bytes);
  if (image) return { kind: "image", mime: image };
  if (IMAGE_EXTENSIONS.has(extension)) return { error: NOT_AN_IMAGE_MESSAGE };

  if (isPdf(bytes)) return { kind: "pdf", mime: "application/pdf" };
  if (extension === "pdf") return { error: NOT_A_PDF_MESSAGE };

  if (isDocx(bytes)) return { kind: "docx", mime: DOCX_MIME };
  if (extension === "docx") return { error: NOT_A_DOCX_MESSAGE };
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) && extension === "doc") return { error: OLD_WORD_MESSAGE };

  if (!isUtf8Text(bytes)) return { error: UNSUPPORTED_FILE_MESSAGE };
  if (MARKDOWN_EXTENSIONS.has(extension)) return { kind: "markdown", mime: "text/markdown" };
  if (HTML_EXTENSIONS.has(extension)) return { kind: "html", mime: "text/html" };
  const csv = CSV_EXTENSIONS.get(extension);
  if (csv) return { kind: "csv", mime: csv };
  if (extension === "json") return parsesAsJson(bytes) ? { kind: "json", mime: "application/json" } : { kind: "text", mime: "text/plain" };
  if (CODE_EXTENSIONS.has(extension)) return { kind: "code", mime: "text/plain" };
  return { kind: "text", mime: "text/plain" };
}

export function isImageKind(kind: FileKind): boolean {
  return kind === "image";
}
