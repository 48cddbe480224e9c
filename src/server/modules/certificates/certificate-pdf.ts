import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, rgb } from "pdf-lib";

export interface CertificateText {
  learnerName: string;
  courseTitle: string;
  ownerName: string;
  issuedAt: Date;
  verifyUrl: string;
}

/**
 * DejaVu Sans (the npm package dejavu-fonts-ttf; Bitstream Vera licence, embedding allowed, decision 042): Latin with
 * its extensions, Greek, Cyrillic and more. The files are found through Node's resolution from this module, so the
 * same lookup works from src/ (tsx) and from the compiled dist/server/main.js (packages stay in node_modules).
 */
const FONT_FILES = {
  regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
} as const;
type FontName = keyof typeof FONT_FILES;

const resolveFile = createRequire(import.meta.url).resolve;
/** Each font file is read once per process; the first certificate pays for it. */
const fontBytes = new Map<FontName, Promise<Uint8Array>>();
/** The code points each font has a glyph for, learnt from the first embed. */
const fontCoverage = new Map<FontName, Set<number>>();

function bytesOf(name: FontName): Promise<Uint8Array> {
  let bytes = fontBytes.get(name);
  if (!bytes) {
    bytes = readFile(resolveFile(FONT_FILES[name]));
    // A failed read is not kept: the next certificate tries again.
    bytes.catch(() => fontBytes.delete(name));
    fontBytes.set(name, bytes);
  }
  return bytes;
}

/**
 * fontkit, with each font file parsed once per process: a parsed font is read lazily (glyphs as they are drawn) and
 * keeps what it read, so later certificates draw and subset from it at once. Each document still makes its own subset.
 */
const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const cachedFontkit: typeof fontkit = {
  ...fontkit,
  create(bytes, postscriptName) {
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName);
    let font = parsed.get(bytes);
    if (!font) {
      font = fontkit.create(bytes);
      parsed.set(bytes, font);
    }
    return font;
  },
};

interface Face {
  font: PDFFont;
  has: Set<number>;
}

async function embed(pdf: PDFDocument, name: FontName): Promise<Face> {
  // subset: only the glyphs drawn are written, so the PDF stays small (about 20 KB instead of 1.4 MB).
  const font = await pdf.embedFont(await bytesOf(name), { subset: true });
  let has = fontCoverage.get(name);
  if (!has) {
    has = new Set(font.getCharacterSet());
    fontCoverage.set(name, has);
  }
  return { font, has };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** What stands for a character the font cannot draw: visible, and the rest of the line is kept. */
const REPLACEMENT = "\ufffd";

/**
 * The text as the font can draw it: composed (NFC, so "ë" is one letter the font has), and each character (a grapheme:
 * an emoji with its modifiers, a letter with its marks) the font lacks a glyph for becomes one replacement mark, so a
 * CJK name or an emoji never stops a certificate from being made.
 */
export function drawable(text: string, has: ReadonlySet<number>): string {
  const replacement = has.has(REPLACEMENT.codePointAt(0) ?? 0) ? REPLACEMENT : "?";
  let out = "";
  for (const { segment } of graphemes.segment(text.normalize("NFC").replace(/[\r\n\t]+/g, " "))) {
    let drawn = true;
    for (const char of segment) if (!has.has(char.codePointAt(0) ?? 0)) drawn = false;
    out += drawn ? segment : replacement;
  }
  return out;
}

/** Shrinks the size until the line fits the width. */
function fitted(font: PDFFont, text: string, size: number, width: number): number {
  let s = size;
  while (s > 8 && font.widthOfTextAtSize(text, s) > width) s -= 1;
  return s;
}

/** A certificate of completion, landscape A4, made on the server (pdf-lib, with DejaVu Sans embedded and subset). */
export async function certificatePdf(text: CertificateText): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(cachedFontkit);
  // The document's title is metadata (UTF-16 in the PDF): any letter, no font needed.
  pdf.setTitle(`Certificate: ${text.courseTitle}`);
  pdf.setCreator("Certificates");
  const page = pdf.addPage([842, 595]);
  const { width, height } = page.getSize();
  const [regular, bold] = await Promise.all([embed(pdf, "regular"), embed(pdf, "bold")]);
  const ink = rgb(0.12, 0.12, 0.16);
  const muted = rgb(0.4, 0.4, 0.45);
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: muted, borderWidth: 1.5 });

  const centred = (value: string, y: number, { font, has }: Face, size: number, color = ink) => {
    const line = drawable(value, has);
    const s = fitted(font, line, size, width - 120);
    page.drawText(line, { x: (width - font.widthOfTextAtSize(line, s)) / 2, y, size: s, font, color });
  };
  centred("Certificate of Completion", height - 130, bold, 34);
  centred("This certifies that", height - 190, regular, 14, muted);
  centred(text.learnerName, height - 240, bold, 30);
  centred("has completed the course", height - 285, regular, 14, muted);
  centred(text.courseTitle, height - 330, bold, 22);
  centred(`Taught by ${text.ownerName}`, height - 370, regular, 14);
  centred(`Issued on ${text.issuedAt.toISOString().slice(0, 10)}`, height - 395, regular, 12, muted);
  centred("Verify this certificate at", 110, regular, 11, muted);
  centred(text.verifyUrl, 90, regular, 11);
  return pdf.save();
}
