import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";

/**
 * The certificate's fonts (decisions 042 and 062). The text faces are DejaVu (the npm package dejavu-fonts-ttf):
 * Latin with its extensions, Greek, Cyrillic, Arabic letters. What they cannot draw, Chinese, Japanese and Korean,
 * comes from Noto Sans JP, SC and KR (the npm packages @fontsource/noto-sans-jp, -sc, -kr, SIL OFL 1.1), which ship
 * each font cut into about a hundred small files by code point (their unicode.json says which file has which): a
 * certificate reads and embeds only the files its characters are in, each as a subset. Everything is found through
 * Node's resolution from this module, so the same lookup works from src/ (tsx) and from dist/server/main.js.
 */
const TEXT_FACES = {
  sans: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  sansBold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
  sansLight: "dejavu-fonts-ttf/ttf/DejaVuSans-ExtraLight.ttf",
  serif: "dejavu-fonts-ttf/ttf/DejaVuSerif.ttf",
  serifBold: "dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf",
  serifItalic: "dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf",
} as const;
export type FaceName = keyof typeof TEXT_FACES;
/** DejaVu Serif has no Arabic or Hebrew (DejaVu Sans has): a letter a serif face lacks is drawn by its sans. */
const FALLBACK_FACE: Partial<Record<FaceName, FaceName>> = { serif: "sans", serifBold: "sansBold", serifItalic: "sans", sansLight: "sans" };
/** The weight of Noto Sans CJK that goes with each face. */
const CJK_WEIGHT: Record<FaceName, 400 | 700> = {
  sans: 400,
  sansBold: 700,
  sansLight: 400,
  serif: 400,
  serifBold: 700,
  serifItalic: 400,
};

type CjkScript = "jp" | "sc" | "kr";

const resolveFile = createRequire(import.meta.url).resolve;

/** Each file is read once per process (a failed read is not kept: the next certificate tries again). */
const fileBytes = new Map<string, Promise<Uint8Array>>();
function bytesOf(file: string): Promise<Uint8Array> {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = readFile(resolveFile(file));
    bytes.catch(() => fileBytes.delete(file));
    fileBytes.set(file, bytes);
  }
  return bytes;
}

/**
 * fontkit, with each font file parsed once per process: a parsed font is read lazily (glyphs as they are drawn) and
 * keeps what it read, so later certificates draw and subset from it at once. Each document still makes its own subset.
 */
const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const parsedFont = (bytes: Uint8Array) => {
  let font = parsed.get(bytes);
  if (!font) {
    font = fontkit.create(bytes);
    parsed.set(bytes, font);
  }
  return font;
};
export const cachedFontkit: typeof fontkit = {
  ...fontkit,
  create: (bytes, postscriptName) => (postscriptName === undefined ? parsedFont(bytes) : fontkit.create(bytes, postscriptName)),
};

/** The code points each text face has a glyph for, learnt from its first parse. */
const faceCoverage = new Map<FaceName, Set<number>>();

/** Which of a script's files holds each code point (from the package's unicode.json), read once per process. */
const chunkMaps = new Map<CjkScript, Promise<Map<number, string>>>();
function chunkMap(script: CjkScript): Promise<Map<number, string>> {
  let map = chunkMaps.get(script);
  if (!map) {
    map = bytesOf(`@fontsource/noto-sans-${script}/unicode.json`).then((bytes) => {
      const ranges = JSON.parse(Buffer.from(bytes).toString("utf8")) as Record<string, string>;
      const byCodePoint = new Map<number, string>();
      for (const [key, list] of Object.entries(ranges)) {
        // "[12]" are the CJK files; "latin", "cyrillic"... are drawn by DejaVu.
        const chunk = /^\[(\d+)\]$/.exec(key)?.[1];
        if (!chunk) continue;
        for (const range of list.split(",")) {
          const [from, to] = range.trim().replace(/^U\+/i, "").split("-");
          const first = Number.parseInt(from ?? "", 16);
          const last = to === undefined ? first : Number.parseInt(to, 16);
          for (let cp = first; cp <= last; cp += 1) if (!byCodePoint.has(cp)) byCodePoint.set(cp, chunk);
        }
      }
      return byCodePoint;
    });
    map.catch(() => chunkMaps.delete(script));
    chunkMaps.set(script, map);
  }
  return map;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
/**
 * The order the CJK fonts are tried in for a line: Korean first when it has Hangul, else Japanese, then Simplified
 * Chinese (Han characters alone are drawn by the first that has all of them: Japanese forms, as Source Han Sans's
 * default; a name with a simplified character the Japanese font lacks is drawn by the Chinese font whole).
 */
const scriptOrder = (text: string): CjkScript[] => (HANGUL.test(text) ? ["kr", "jp", "sc"] : ["jp", "sc", "kr"]);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** What stands for a character no font has: visible, and the rest of the line is kept. */
export const REPLACEMENT = "\ufffd";

/** A CJK file as read: its bytes and the code points it has glyphs for. */
interface ChunkFile {
  key: string;
  name: string;
  bytes: Uint8Array;
  has: Set<number>;
}
const chunkFiles = new Map<string, Promise<ChunkFile | null>>();
/** The file of `script` that holds `codePoint` at `weight`, read and parsed once per process; null when none does. */
async function chunkFile(script: CjkScript, weight: 400 | 700, codePoint: number): Promise<ChunkFile | null> {
  const id = (await chunkMap(script)).get(codePoint);
  if (id === undefined) return null;
  const key = `${script}-${id}-${weight}`;
  let file = chunkFiles.get(key);
  if (!file) {
    // The WOFF files, not the WOFF2: fontkit's subset of a WOFF2 font is written without its glyph outlines.
    file = bytesOf(`@fontsource/noto-sans-${script}/files/noto-sans-${script}-${id}-${weight}-normal.woff`).then((bytes) => {
      try {
        const name = `NotoSans${script.toUpperCase()}-${weight === 700 ? "Bold" : "Regular"}`;
        return { key, name, bytes, has: new Set(parsedFont(bytes).characterSet) };
      } catch {
        // A file fontkit cannot read (one of the packages' files has a cmap it does not parse) draws nothing.
        return null;
      }
    });
    file.catch(() => chunkFiles.delete(key));
    chunkFiles.set(key, file);
  }
  return file;
}

/** The CJK file of `script` that draws every code point of the grapheme, if one does. */
async function cjkFileFor(script: CjkScript, weight: 400 | 700, grapheme: string): Promise<ChunkFile | null> {
  const points = [...grapheme].map((char) => char.codePointAt(0) ?? 0);
  const file = await chunkFile(script, weight, points[0] ?? 0);
  return file && points.every((cp) => file.has.has(cp)) ? file : null;
}

/**
 * Where each grapheme the face lacks is drawn: in the first CJK font (in `scriptOrder`) that has all of them, so a
 * name is one design; else each in the first that has it; null for none.
 */
async function cjkFilesFor(graphemesToPlace: string[], weight: 400 | 700, order: CjkScript[]) {
  const tried: (ChunkFile | null)[][] = [];
  for (const script of order) {
    const files = await Promise.all(graphemesToPlace.map((grapheme) => cjkFileFor(script, weight, grapheme)));
    if (files.every((file) => file !== null)) return new Map(graphemesToPlace.map((grapheme, i) => [grapheme, files[i] ?? null]));
    tried.push(files);
  }
  return new Map(graphemesToPlace.map((grapheme, i) => [grapheme, tried.map((files) => files[i]).find((file) => file) ?? null]));
}

/** A piece of a line drawn in one font. */
export interface Run {
  text: string;
  font: PDFFont;
}

/**
 * One document's fonts: each face and each CJK file is embedded once, as a subset (only the glyphs drawn are written),
 * and only when a line draws with it, under the PDF name subsets carry ("ABCDEF+Name", PDF 32000 9.6.4).
 */
export class CertificateFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();

  constructor(private readonly pdf: PDFDocument) {
    pdf.registerFontkit(cachedFontkit);
  }

  /** Six capital letters, different for each font of the document. */
  private subsetName(name: string): string {
    let n = this.embedded.size;
    let tag = "";
    for (let i = 0; i < 6; i += 1) {
      tag = String.fromCharCode(65 + (n % 26)) + tag;
      n = Math.floor(n / 26);
    }
    return `${tag}+${name}`;
  }

  private embed(key: string, name: string, bytes: Uint8Array): Promise<PDFFont> {
    let font = this.embedded.get(key);
    if (!font) {
      font = this.pdf.embedFont(bytes, { subset: true, customName: this.subsetName(name) });
      this.embedded.set(key, font);
    }
    return font;
  }

  /** A face as read (once per process) and what it has; embedded in the document only when a line draws with it. */
  private async face(name: FaceName) {
    const bytes = await bytesOf(TEXT_FACES[name]);
    const parsedFace = parsedFont(bytes);
    let has = faceCoverage.get(name);
    if (!has) {
      has = new Set(parsedFace.characterSet);
      faceCoverage.set(name, has);
    }
    return { has, embed: () => this.embed(name, parsedFace.postscriptName ?? name, bytes) };
  }

  /**
   * The line as runs of one font each: composed (NFC), line breaks and tabs as spaces; each grapheme (a letter with
   * its marks, an emoji with its modifiers) in the face when it has every code point, else in its fallback face
   * (`FALLBACK_FACE`), else in a CJK font (`cjkFilesFor`), else one replacement mark in the face.
   */
  async runs(text: string, faceName: FaceName): Promise<Run[]> {
    const fallbackName = FALLBACK_FACE[faceName];
    const faces = await Promise.all([this.face(faceName), ...(fallbackName ? [this.face(fallbackName)] : [])]);
    const line = [...graphemes.segment(text.normalize("NFC").replace(/[\r\n\t]+/g, " "))].map((g) => g.segment);
    const faceFor = (grapheme: string) => faces.find((face) => [...grapheme].every((char) => face.has.has(char.codePointAt(0) ?? 0)));
    const others = [...new Set(line.filter((grapheme) => !faceFor(grapheme)))];
    const placed = others.length > 0 ? await cjkFilesFor(others, CJK_WEIGHT[faceName], scriptOrder(text)) : new Map();
    const [face] = faces;
    if (!face) throw new Error("no face");
    const replacement = face.has.has(REPLACEMENT.codePointAt(0) ?? 0) ? REPLACEMENT : "?";
    const runs: Run[] = [];
    for (const grapheme of line) {
      const inFace = faceFor(grapheme);
      const file = inFace ? null : placed.get(grapheme);
      const font = await (inFace ?? (file ? { embed: () => this.embed(file.key, file.name, file.bytes) } : face)).embed();
      const drawn = inFace || file ? grapheme : replacement;
      const last = runs.at(-1);
      if (last && last.font === font) last.text += drawn;
      else runs.push({ text: drawn, font });
    }
    return runs;
  }
}

/** The width of runs at a size. */
export const widthOf = (runs: readonly Run[], size: number) =>
  runs.reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
