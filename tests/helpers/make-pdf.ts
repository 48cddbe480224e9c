/**
 * Documents made in the test, for reading, ingestion and API tests and benches (issue 30):
 * `makePdf` a real PDF (pdf-lib) with one page per string, `makeDocx` a minimal Word document zipped by hand
 * (fflate) with real heading styles, so mammoth reads "Heading 1" paragraphs as headings; and hostile ones:
 * `makePdfWithPages` (any number of blank pages, cheaply), `makePdfDeclaringPages` (a one-page PDF whose page tree
 * claims any count), `makePdfStreamBomb` and `makeZipBombDocx`.
 */
import { crc32, createDeflate, createDeflateRaw, deflateRawSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";
import { PDFDocument, PDFName, PDFNumber, StandardFonts } from "pdf-lib";

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
const FONT_SIZE = 10;
const LINE_HEIGHT = 12.5;

/**
 * A PDF whose page n (1-based) shows `pages[n - 1]`, wrapped to the page; paragraphs ("\n\n") leave a blank line.
 * Helvetica writes WinAnsi only: keep the text to Latin letters and common punctuation.
 */
export async function makePdf(pages: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const width = PAGE_WIDTH - 2 * MARGIN;
  for (const text of pages) {
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let y = PAGE_HEIGHT - MARGIN;
    for (const paragraph of text.split(/\n{2,}/)) {
      let line = "";
      const lines: string[] = [];
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const next = line ? `${line} ${word}` : word;
        if (line && font.widthOfTextAtSize(next, FONT_SIZE) > width) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      if (line) lines.push(line);
      for (const one of lines) {
        page.drawText(one, { x: MARGIN, y, size: FONT_SIZE, font });
        y -= LINE_HEIGHT;
      }
      y -= LINE_HEIGHT;
    }
  }
  return pdf.save({ useObjectStreams: false });
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The parts of a minimal .docx holding `paragraphs` (a heading level makes it a "Heading N" paragraph). */
export function docxParts(paragraphs: { heading?: 1 | 2 | 3; text: string }[]): Record<string, Uint8Array> {
  const body = paragraphs
    .map(({ heading, text }) => {
      const style = heading ? `<w:pPr><w:pStyle w:val="Heading${heading}"/></w:pPr>` : "";
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
    })
    .join("");
  const headingStyles = [1, 2, 3]
    .map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/><w:basedOn w:val="Normal"/></w:style>`)
    .join("");
  return {
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        "</Types>",
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        "</Relationships>",
    ),
    "word/_rels/document.xml.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        "</Relationships>",
    ),
    "word/styles.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}>` +
        `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${headingStyles}</w:styles>`,
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    ),
  };
}

/** A minimal Word document (.docx) holding `paragraphs`, zipped with deflate. */
export function makeDocx(paragraphs: { heading?: 1 | 2 | 3; text: string }[]): Uint8Array {
  return zipSync(docxParts(paragraphs), { level: 6 });
}

/**
 * A tiny PDF whose page tree says it has `count` pages, in a way a reader believes: the root counts `count`, its
 * kids are an empty node claiming `count - 1` pages and one real page, so the last page is found where the counts
 * say (pdf.js checks that page; a root that merely lies about its Count is seen through). Only the last page exists.
 */
export async function makePdfDeclaringPages(count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const root = pdf.catalog.Pages();
  const realPage = root.Kids().get(0);
  const rootRef = pdf.catalog.get(PDFName.of("Pages"));
  const empty = pdf.context.register(
    pdf.context.obj({ Type: "Pages", Parent: rootRef, Count: PDFNumber.of(count - 1), Kids: pdf.context.obj([]) }),
  );
  root.set(PDFName.of("Kids"), pdf.context.obj([empty, realPage]));
  root.set(PDFName.of("Count"), PDFNumber.of(count));
  return pdf.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/**
 * A PDF that really has `count` blank pages, written by hand (pdf-lib takes seconds for 100,000): a two-level page
 * tree of up to 1,000 pages a node, about 65 bytes a page (6.5 MB for 100,000), made in milliseconds.
 */
export function makePdfWithPages(count: number): Uint8Array {
  const objects: string[] = []; // objects[i] is object i + 1
  const add = (body: string) => objects.push(body);
  add("<</Type/Catalog/Pages 2 0 R>>");
  add(""); // 2: the root, written once its kids are known
  const perNode = 1000;
  const nodes = Math.ceil(count / perNode);
  const firstNode = 3;
  const firstPage = firstNode + nodes;
  for (let n = 0; n < nodes; n += 1) {
    const pages = Math.min(perNode, count - n * perNode);
    const kids = Array.from({ length: pages }, (_, i) => `${firstPage + n * perNode + i} 0 R`).join(" ");
    add(`<</Type/Pages/Parent 2 0 R/Count ${pages}/Kids[${kids}]>>`);
  }
  for (let p = 0; p < count; p += 1) add(`<</Type/Page/Parent ${firstNode + Math.floor(p / perNode)} 0 R>>`);
  const nodeRefs = Array.from({ length: nodes }, (_, n) => `${firstNode + n} 0 R`).join(" ");
  objects[1] = `<</Type/Pages/Count ${count}/MediaBox[0 0 612 792]/Kids[${nodeRefs}]>>`;
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj${object}endobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

type RawEntry = { name: string; data: Uint8Array; size: number; crc: number; method: 0 | 8 };

/** A zip written byte by byte, so a test can make its entries declare any unzipped size (`size`). */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength));
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * `megabytes` MiB of one byte (zeros unless told), deflated (level 1: about 4.5 KB a MiB, 0.6 s a GiB), without ever
 * holding them; raw deflate (zip) or with zlib's wrapper (a PDF's FlateDecode).
 */
async function deflatedRun(megabytes: number, options: { fill?: number; zlib?: boolean } = {}): Promise<Uint8Array> {
  const deflate = options.zlib ? createDeflate({ level: 1 }) : createDeflateRaw({ level: 1 });
  const parts: Buffer[] = [];
  deflate.on("data", (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const run = Buffer.alloc(1024 * 1024, options.fill ?? 0);
  for (let i = 0; i < megabytes; i += 1) {
    if (!deflate.write(run)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * A PDF bomb: one page whose content stream is `megabytes` MiB of spaces (512 unless told) deflated to a few MB.
 * pdf.js inflates a content stream whole before reading it, so this asks the reader for that much memory.
 */
export async function makePdfStreamBomb(megabytes = 512): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const contents = pdf.context.stream(await deflatedRun(megabytes, { fill: 0x20, zlib: true }), { Filter: "FlateDecode" });
  page.node.set(PDFName.of("Contents"), pdf.context.register(contents));
  return pdf.save({ useObjectStreams: false });
}

/**
 * A Word document with a picture of `megabytes` MiB of zeros (1 GiB unless told) deflated to a few MB: a zip bomb.
 * `declaredSize` is the unzipped size its entry claims: the truth unless told (refused on the declared total), or a
 * lie (say 1,000 bytes: refused as it inflates past it).
 */
export async function makeZipBombDocx(options: { megabytes?: number; declaredSize?: number } = {}): Promise<Uint8Array> {
  const megabytes = options.megabytes ?? 1024;
  const parts = docxParts([{ heading: 1, text: "Harmless title" }, { text: "Nothing to see." }]);
  const entries: RawEntry[] = Object.entries(parts).map(([name, data]) => ({
    name,
    data: new Uint8Array(deflateRawSync(data)),
    size: data.length,
    crc: crc32(data),
    method: 8,
  }));
  const size = Math.min(options.declaredSize ?? megabytes * 1024 * 1024, 0xffffffff);
  entries.push({ name: "word/media/image1.png", data: await deflatedRun(megabytes), size, crc: 0, method: 8 });
  return rawZip(entries);
}
