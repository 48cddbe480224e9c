/**
 * The template engine: logic-less `{{ name }}` placeholders and nothing else. No expressions, no helpers,
 * no paths: a placeholder reads one own property of the data it was given (never the prototype), a
 * missing one renders empty, and the HTML part HTML-escapes every value. A template cannot run code.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]{0,63})\s*\}\}/g;

export type TemplateData = Record<string, unknown>;

function lookup(data: TemplateData, key: string): string {
  if (!Object.hasOwn(data, key)) return "";
  const value = data[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** Plain text and subjects: values as they are (a subject loses line breaks, so no header can be added). */
export function renderText(template: string, data: TemplateData): string {
  return template.replace(PLACEHOLDER, (_m, key: string) => lookup(data, key));
}

export function renderSubject(template: string, data: TemplateData): string {
  return renderText(template, data)
    .replace(/[\r\n]+/g, " ")
    .trim();
}

/** The HTML part: every value escaped. */
export function renderHtml(template: string, data: TemplateData): string {
  return template.replace(PLACEHOLDER, (_m, key: string) => escapeHtml(lookup(data, key)));
}

/** The variables a template uses (for the editor's hint and the test dialog). */
export function placeholdersOf(...templates: string[]): string[] {
  const names = new Set<string>();
  for (const template of templates) for (const match of template.matchAll(PLACEHOLDER)) if (match[1]) names.add(match[1]);
  return [...names];
}
