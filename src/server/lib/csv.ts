/**
 * One CSV cell. A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula (CSV injection): such a cell gets a leading single quote. Then RFC 4180: a cell with a quote, a comma,
 * a semicolon (the separator of spreadsheets in many locales, which would otherwise start a new cell such as
 * `=cmd|...` inside it) or a line break is quoted, its quotes doubled. Every CSV export writes its cells with this.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(",")}\r\n`;
