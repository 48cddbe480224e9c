/**
 * Text files and HTML to text. HTML is only parsed (htmlparser2), never rendered or run: scripts, styles, comments
 * and other non-text parts are dropped, headings become Markdown "#" lines and block elements paragraphs, so the
 * chunker sees the same structure as in a Markdown file. Mammoth's HTML of a Word document comes through here too.
 */
import { Parser } from "htmlparser2";

/** Elements whose content is never text for a reader. */
const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "audio",
  "video",
  "select",
  "button",
]);
/** Elements that end the paragraph before them and start a new one. */
const BLOCKS = new Set(
  (
    "p div section article header footer main nav aside blockquote pre ul ol li table thead tbody tfoot tr caption dl dt dd " +
    "figure figcaption hr address details summary form fieldset legend body html center"
  ).split(" "),
);
const CELLS = new Set(["td", "th"]);

/** A UTF-8 file's text: no byte-order mark, lines ending in \n. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/\r\n?/g, "\n");
}

/** Nested lists deeper than this are indented no further: thousands of open <ul>s must not make each item that long. */
const MAX_LIST_INDENT = 8;

function withoutLeadingNewlines(text: string): string {
  let start = 0;
  while (start < text.length && text[start] === "\n") start += 1;
  return text.slice(start);
}

/** Each line without spaces and tabs at its ends, and the whole trimmed. */
function trimLines(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^[ \t]+/, "").trimEnd())
    .join("\n")
    .trim();
}

export function htmlToText(html: string): string {
  const paragraphs: string[] = [];
  let current = "";
  let skipping = 0;
  let pre = 0;
  let heading = 0;
  let listDepth = 0;

  const flush = () => {
    // Linear on any text (issue 30 review: the regexes these replace were quadratic on long runs of spaces).
    const text = pre > 0 ? withoutLeadingNewlines(current).trimEnd() : trimLines(current);
    if (text) paragraphs.push(heading ? `${"#".repeat(heading)} ${text.replace(/\s+/g, " ")}` : text);
    current = "";
  };

  const parser = new Parser(
    {
      onopentag(name) {
        // htmlparser2 closes every element it opens (void ones and implied ends too), so a count is enough.
        if (skipping > 0 || SKIPPED.has(name)) {
          skipping += 1;
          return;
        }
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          flush();
          heading = Number(level[1]);
          return;
        }
        if (name === "br") {
          current += "\n";
          return;
        }
        if (CELLS.has(name)) {
          if (current && !current.endsWith(" ")) current += " | ";
          return;
        }
        if (BLOCKS.has(name)) {
          flush();
          if (name === "pre") pre += 1;
          if (name === "ul" || name === "ol") listDepth += 1;
          if (name === "li") current = `${"  ".repeat(Math.min(MAX_LIST_INDENT, Math.max(0, listDepth - 1)))}- `;
        }
      },
      ontext(text) {
        if (skipping > 0) return;
        current += pre > 0 ? text : text.replace(/\s+/g, " ");
      },
      onclosetag(name) {
        if (skipping > 0) {
          skipping -= 1;
          return;
        }
        if (/^h[1-6]$/.test(name)) {
          flush();
          heading = 0;
          return;
        }
        if (BLOCKS.has(name)) {
          flush();
          if (name === "pre") pre = Math.max(0, pre - 1);
          if (name === "ul" || name === "ol") listDepth = Math.max(0, listDepth - 1);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  // A "- " alone (an empty list item) is no paragraph.
  return paragraphs.filter((p) => p.replace(/^[\s-]+/, "") !== "").join("\n\n");
}
