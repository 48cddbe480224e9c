import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";

export interface CertificateText {
  learnerName: string;
  courseTitle: string;
  ownerName: string;
  issuedAt: Date;
  verifyUrl: string;
}

/**
 * The standard fonts write Latin-1 (WinAnsi) only: a letter with an accent keeps its base letter, anything else
 * becomes "?", so a name never stops a certificate from being made.
 */
function printable(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
}

/** Shrinks the size until the line fits the width. */
function fitted(font: PDFFont, text: string, size: number, width: number): number {
  let s = size;
  while (s > 8 && font.widthOfTextAtSize(text, s) > width) s -= 1;
  return s;
}

/** A certificate of completion, landscape A4, made on the server (pdf-lib). */
export async function certificatePdf(text: CertificateText): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(`Certificate: ${text.courseTitle}`));
  pdf.setCreator("Certificates");
  const page = pdf.addPage([842, 595]);
  const { width, height } = page.getSize();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.12, 0.12, 0.16);
  const muted = rgb(0.4, 0.4, 0.45);
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: muted, borderWidth: 1.5 });

  const centred = (value: string, y: number, font: PDFFont, size: number, color = ink) => {
    const line = printable(value);
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
