import { type Color, PDFDocument, type PDFPage, popGraphicsState, pushGraphicsState, rgb, setCharacterSpacing } from "pdf-lib";
import type { CertificateStyle } from "../../../shared/contracts/courses.js";
import { CertificateFonts, type FaceName, widthOf } from "./certificate-fonts.js";

export interface CertificateText {
  learnerName: string;
  courseTitle: string;
  ownerName: string;
  issuedAt: Date;
  verifyUrl: string;
  /** The product's name (Platform Settings), beside its mark at the top. */
  platformName: string;
  style: CertificateStyle;
}

/**
 * Letter spacing of tracked lines, in ems: under a tenth, or PDF readers take the gaps for spaces when the text is
 * copied ("C E R T I F I C A T E": pdf.js did at 0.107).
 */
const TRACKING = 0.085;
const WIDTH = 842;
const HEIGHT = 595;

/** The product mark of the web's Logo (lucide's Sparkles, 24 units, drawn as strokes) in a rounded square. */
const SPARKLES = [
  "M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z",
  "M20 2v4",
  "M22 4h-4",
  "M6 20a2 2 0 1 1-4 0a2 2 0 1 1 4 0",
];

/** The web's primary violet (styles.css, oklch(0.511 0.262 292)) and the other inks. */
const INK = {
  violet: rgb(0.43, 0.2, 0.86),
  navy: rgb(0.11, 0.16, 0.3),
  gold: rgb(0.72, 0.56, 0.25),
  ivory: rgb(0.99, 0.975, 0.94),
  text: rgb(0.12, 0.12, 0.16),
  muted: rgb(0.42, 0.42, 0.47),
  faint: rgb(0.82, 0.82, 0.86),
  white: rgb(1, 1, 1),
};

interface LineOptions {
  face: FaceName;
  size: number;
  /** The baseline. */
  y: number;
  color?: Color;
  /** left: starts at x; center: centred on x. */
  align?: "left" | "center";
  x?: number;
  /** The widest the line may be: the size shrinks until it fits. */
  maxWidth?: number;
  /** Letters spaced out (headings and labels in capitals), by TRACKING of the size. */
  tracked?: boolean;
}

/** One page being drawn: lines of text in any script (runs of fonts), rules, the mark. */
class Sheet {
  constructor(
    readonly page: PDFPage,
    private readonly fonts: CertificateFonts,
  ) {}

  async text(value: string, options: LineOptions): Promise<{ width: number; size: number }> {
    const runs = await this.fonts.runs(value, options.face);
    const letters = runs.reduce((n, run) => n + [...run.text].length, 0);
    const widthAt = (size: number) => widthOf(runs, size) + (options.tracked ? TRACKING * size * letters : 0);
    let size = options.size;
    while (size > 8 && widthAt(size) > (options.maxWidth ?? WIDTH - 120)) size -= 1;
    const width = widthAt(size);
    const spacing = options.tracked ? TRACKING * size : 0;
    const align = options.align ?? "center";
    let x = align === "center" ? (options.x ?? WIDTH / 2) - width / 2 : (options.x ?? 0);
    if (spacing) this.page.pushOperators(pushGraphicsState(), setCharacterSpacing(spacing));
    for (const run of runs) {
      this.page.drawText(run.text, { x, y: options.y, size, font: run.font, color: options.color ?? INK.text });
      x += run.font.widthOfTextAtSize(run.text, size) + spacing * [...run.text].length;
    }
    if (spacing) this.page.pushOperators(popGraphicsState());
    return { width, size };
  }

  rule(x1: number, x2: number, y: number, color: Color, thickness = 0.75) {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, color, thickness });
  }

  /** The product mark, `size` points square, its top left corner at (x, y). */
  mark(x: number, y: number, size: number, background: Color, foreground: Color) {
    const r = size * 0.22;
    const s = size;
    this.page.drawSvgPath(
      `M${r} 0H${s - r}A${r} ${r} 0 0 1 ${s} ${r}V${s - r}A${r} ${r} 0 0 1 ${s - r} ${s}H${r}A${r} ${r} 0 0 1 0 ${s - r}V${r}A${r} ${r} 0 0 1 ${r} 0Z`,
      { x, y, color: background },
    );
    const scale = (size * 0.56) / 24;
    const inset = (size - 24 * scale) / 2;
    for (const path of SPARKLES) {
      this.page.drawSvgPath(path, { x: x + inset, y: y - inset, scale, borderColor: foreground, borderWidth: 2 * scale });
    }
  }

  /** The mark and the product's name, together `centre`d on x or starting at x. */
  async brand(
    platformName: string,
    options: { x: number; y: number; align: "left" | "center"; face: FaceName; color: Color; markColor: Color; markInk: Color },
  ) {
    const size = 22;
    const gap = 8;
    const runs = await this.fonts.runs(platformName, options.face);
    const nameWidth = Math.min(widthOf(runs, 13), 320);
    const left = options.align === "center" ? options.x - (size + gap + nameWidth) / 2 : options.x;
    this.mark(left, options.y + size - 6, size, options.markColor, options.markInk);
    await this.text(platformName, {
      face: options.face,
      size: 13,
      y: options.y,
      align: "left",
      x: left + size + gap,
      color: options.color,
      maxWidth: 320,
    });
  }

  /** A signature line: the value written above it, the label below; centred on x. */
  async signed(
    value: string,
    label: string,
    options: {
      x: number;
      y: number;
      width: number;
      face: FaceName;
      size: number;
      labelFace: FaceName;
      ink: Color;
      lineColor: Color;
      align?: "left" | "center";
    },
  ) {
    const align = options.align ?? "center";
    const left = align === "center" ? options.x - options.width / 2 : options.x;
    await this.text(value, {
      face: options.face,
      size: options.size,
      y: options.y + 8,
      align,
      x: options.x,
      maxWidth: options.width,
      color: options.ink,
    });
    this.rule(left, left + options.width, options.y, options.lineColor, 0.75);
    await this.text(label, { face: options.labelFace, size: 8.5, y: options.y - 16, align, x: options.x, color: INK.muted, tracked: true });
  }
}

/** The day the certificate was issued, as "27 November 2026" (UTC, as stored). */
const issuedOn = (date: Date) => new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(date);

/** Classic: ivory paper, a navy frame with a gold line inside, serif letters, a seal between the signatures. */
async function classic(sheet: Sheet, text: CertificateText) {
  const { page } = sheet;
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: HEIGHT, color: INK.ivory });
  page.drawRectangle({ x: 18, y: 18, width: WIDTH - 36, height: HEIGHT - 36, borderColor: INK.navy, borderWidth: 3 });
  page.drawRectangle({ x: 27, y: 27, width: WIDTH - 54, height: HEIGHT - 54, borderColor: INK.gold, borderWidth: 0.8 });
  for (const [x, y] of [
    [27, 27],
    [WIDTH - 27, 27],
    [27, HEIGHT - 27],
    [WIDTH - 27, HEIGHT - 27],
  ] as const) {
    page.drawSvgPath("M0 -7L7 0L0 7L-7 0Z", { x, y, color: INK.gold });
  }
  await sheet.brand(text.platformName, {
    x: WIDTH / 2,
    y: HEIGHT - 78,
    align: "center",
    face: "serifBold",
    color: INK.navy,
    markColor: INK.navy,
    markInk: INK.white,
  });
  await sheet.text("CERTIFICATE OF COMPLETION", { face: "serifBold", size: 28, y: HEIGHT - 140, color: INK.navy, tracked: true });
  sheet.rule(WIDTH / 2 - 60, WIDTH / 2 + 60, HEIGHT - 158, INK.gold, 1.2);
  await sheet.text("This certifies that", { face: "serifItalic", size: 14, y: HEIGHT - 196, color: INK.muted });
  await sheet.text(text.learnerName, { face: "serifBold", size: 38, y: HEIGHT - 250, color: INK.navy, maxWidth: WIDTH - 160 });
  sheet.rule(WIDTH / 2 - 200, WIDTH / 2 + 200, HEIGHT - 266, INK.gold, 0.8);
  await sheet.text("has completed the course", { face: "serifItalic", size: 14, y: HEIGHT - 298, color: INK.muted });
  await sheet.text(text.courseTitle, { face: "serifBold", size: 22, y: HEIGHT - 336, color: INK.text, maxWidth: WIDTH - 160 });
  // The seal: gold rings with the mark.
  page.drawCircle({ x: WIDTH / 2, y: 132, size: 38, color: INK.gold });
  page.drawCircle({ x: WIDTH / 2, y: 132, size: 33, borderColor: INK.ivory, borderWidth: 1 });
  sheet.mark(WIDTH / 2 - 15, 147, 30, INK.gold, INK.ivory);
  const signature = { y: 116, width: 220, size: 17, labelFace: "serifBold", ink: INK.navy, lineColor: INK.navy } as const;
  await sheet.signed(text.ownerName, "INSTRUCTOR", { ...signature, x: 220, face: "serifItalic" });
  await sheet.signed(issuedOn(text.issuedAt), "ISSUED ON", { ...signature, x: WIDTH - 220, face: "serif", size: 14 });
  await sheet.text(`Verify this certificate at ${text.verifyUrl}`, { face: "serif", size: 8.5, y: 44, color: INK.muted });
}

/** Modern: a violet band with the mark and the heading, the rest set left on white, sans letters. */
async function modern(sheet: Sheet, text: CertificateText) {
  const { page } = sheet;
  const band = 238;
  page.drawRectangle({ x: 0, y: 0, width: band, height: HEIGHT, color: INK.violet });
  page.drawRectangle({ x: band, y: 0, width: 6, height: HEIGHT, color: rgb(0.62, 0.5, 0.96) });
  await sheet.brand(text.platformName, {
    x: 36,
    y: HEIGHT - 64,
    align: "left",
    face: "sansBold",
    color: INK.white,
    markColor: INK.white,
    markInk: INK.violet,
  });
  await sheet.text("CERTIFICATE", {
    face: "sansBold",
    size: 26,
    y: 150,
    align: "left",
    x: 36,
    color: INK.white,
    tracked: true,
    maxWidth: band - 60,
  });
  await sheet.text("OF COMPLETION", {
    face: "sans",
    size: 13,
    y: 126,
    align: "left",
    x: 36,
    color: INK.white,
    tracked: true,
    maxWidth: band - 60,
  });
  page.drawRectangle({ x: 36, y: 100, width: 40, height: 3, color: INK.white });
  const left = band + 64;
  const maxWidth = WIDTH - left - 56;
  await sheet.text("This certifies that", { face: "sans", size: 13, y: HEIGHT - 150, align: "left", x: left, color: INK.muted });
  await sheet.text(text.learnerName, { face: "sansBold", size: 38, y: HEIGHT - 204, align: "left", x: left, color: INK.text, maxWidth });
  await sheet.text("has completed the course", { face: "sans", size: 13, y: HEIGHT - 252, align: "left", x: left, color: INK.muted });
  await sheet.text(text.courseTitle, { face: "sansBold", size: 22, y: HEIGHT - 288, align: "left", x: left, color: INK.violet, maxWidth });
  const signature = { y: 132, width: 210, size: 15, labelFace: "sansBold", ink: INK.text, lineColor: INK.faint, align: "left" } as const;
  await sheet.signed(text.ownerName, "INSTRUCTOR", { ...signature, x: left, face: "sans" });
  await sheet.signed(issuedOn(text.issuedAt), "ISSUED ON", { ...signature, x: left + 250, face: "sans", size: 13 });
  await sheet.text(`Verify this certificate at ${text.verifyUrl}`, {
    face: "sans",
    size: 8,
    y: 48,
    align: "left",
    x: left,
    color: INK.muted,
    maxWidth,
  });
}

/** Minimal: white, no frame, light letters set left, one hairline. */
async function minimal(sheet: Sheet, text: CertificateText) {
  const left = 84;
  const maxWidth = WIDTH - 2 * left;
  await sheet.brand(text.platformName, {
    x: left,
    y: HEIGHT - 84,
    align: "left",
    face: "sans",
    color: INK.text,
    markColor: INK.text,
    markInk: INK.white,
  });
  await sheet.text("CERTIFICATE OF COMPLETION", {
    face: "sans",
    size: 10,
    y: HEIGHT - 150,
    align: "left",
    x: left,
    color: INK.muted,
    tracked: true,
  });
  await sheet.text(text.learnerName, { face: "sansLight", size: 46, y: HEIGHT - 214, align: "left", x: left, color: INK.text, maxWidth });
  sheet.rule(left, left + 56, HEIGHT - 240, INK.violet, 1.5);
  await sheet.text("has completed the course", { face: "sans", size: 12, y: HEIGHT - 276, align: "left", x: left, color: INK.muted });
  await sheet.text(text.courseTitle, { face: "sans", size: 20, y: HEIGHT - 306, align: "left", x: left, color: INK.text, maxWidth });
  const signature = { y: 122, width: 200, size: 14, labelFace: "sans", ink: INK.text, lineColor: INK.faint, align: "left" } as const;
  await sheet.signed(text.ownerName, "INSTRUCTOR", { ...signature, x: left, face: "sansLight" });
  await sheet.signed(issuedOn(text.issuedAt), "ISSUED ON", { ...signature, x: left + 240, face: "sansLight", size: 13 });
  await sheet.text(text.verifyUrl, { face: "sans", size: 8, y: 60, align: "left", x: left, color: INK.muted, maxWidth });
}

const STYLES: Record<CertificateStyle, (sheet: Sheet, text: CertificateText) => Promise<void>> = { classic, modern, minimal };

/**
 * A certificate of completion, landscape A4, made on the server with pdf-lib: every line is text (selectable, read
 * back by a PDF reader), in DejaVu with Noto Sans CJK for what DejaVu lacks, each font embedded as a subset
 * (certificate-fonts.ts), in the course's style (decision 062).
 */
export async function certificatePdf(text: CertificateText): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  // The document's title is metadata (UTF-16 in the PDF): any letter, no font needed.
  pdf.setTitle(`Certificate: ${text.courseTitle}`);
  pdf.setCreator(text.platformName);
  const page = pdf.addPage([WIDTH, HEIGHT]);
  await STYLES[text.style](new Sheet(page, new CertificateFonts(pdf)), text);
  return pdf.save();
}
