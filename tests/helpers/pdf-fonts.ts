import { PDFDict, PDFDocument, PDFName } from "pdf-lib";

/** The fonts a PDF names (the BaseFont of each Type0 font, "ABCDEF+Name" for a subset), read with pdf-lib. */
export async function fontsOf(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const names: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of("Subtype")) !== PDFName.of("Type0")) continue;
    const base = object.get(PDFName.of("BaseFont"));
    if (base instanceof PDFName) names.push(base.decodeText());
  }
  return names;
}
