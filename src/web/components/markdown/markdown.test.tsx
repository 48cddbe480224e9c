import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, safeUrlTransform } from "./markdown.js";

const html = (content: string) => renderToStaticMarkup(<Markdown content={content} />);

describe("safeUrlTransform", () => {
  it("keeps http, https, irc, ircs, mailto, xmpp and relative addresses", () => {
    for (const url of [
      "http://example.com/a",
      "https://example.com/?q=1",
      "irc://irc.example.net/chan",
      "ircs://irc.example.net/chan",
      "mailto:ada@example.com",
      "xmpp:ada@example.com",
      "/relative/path",
      "relative",
      "#anchor",
      "?q=1",
    ]) {
      expect(safeUrlTransform(url)).toBe(url);
    }
  });

  it("blanks every other scheme, whatever its case", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://x",
    ]) {
      expect(safeUrlTransform(url)).toBe("");
    }
  });
});

describe("Markdown", () => {
  it("blanks a javascript: link and keeps its text", () => {
    const out = html("[click me](javascript:alert(document.cookie))");
    expect(out).not.toMatch(/javascript/i);
    expect(out).toContain("click me");
    expect(out).not.toContain("<a");
  });

  it("blanks an unsafe image source", () => {
    const out = html("![pic](data:image/png;base64,AAAA) ![ok](https://example.com/a.png)");
    expect(out).not.toContain("data:");
    expect(out).toContain('src="https://example.com/a.png"');
  });

  it("opens safe links in a new tab without an opener", () => {
    expect(html("[docs](https://example.com/docs)")).toContain(
      '<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">docs</a>',
    );
  });

  it("shows raw HTML as text", () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;script&gt;");
  });

  it("renders GitHub-flavoured markdown and highlights code with a Copy button", () => {
    const out = html("| a | b |\n| - | - |\n| 1 | 2 |\n\n~~gone~~\n\n```js\nconst x = 1;\n```");
    expect(out).toContain("<table>");
    expect(out).toContain("<del>gone</del>");
    expect(out).toContain('class="hljs-keyword"');
    expect(out).toContain(">js<");
    expect(out).toContain("Copy");
  });

  it("puts a table in a region the keyboard reaches, to scroll a wide one sideways", () => {
    const out = html("| a | b |\n| - | - |\n| 1 | 2 |");
    expect(out).toMatch(/<div tabindex="0" role="region" aria-label="Table" class="[^"]*overflow-x-auto[^"]*"><table>/);
    expect(html("no table here")).not.toContain('role="region"');
  });
});

describe("numbered references", () => {
  const refs = { numbers: new Set([1, 2]), render: (n: number) => <button type="button">{`source ${n}`}</button> };
  const withRefs = (content: string) => renderToStaticMarkup(<Markdown content={content} refs={refs} />);

  it("draws a known [n] with the caller's renderer and leaves an unknown one as text", () => {
    const out = withRefs("Cells divide **fast** [1], and [9] is made up.");
    expect(out).toContain('<button type="button">source 1</button>');
    expect(out).toContain("[9] is made up");
    expect(out).not.toContain("source 9");
  });

  it("leaves [n] in code, and without refs draws nothing", () => {
    const code = withRefs("`a[1]` and\n\n```\nb[2]\n```");
    expect(code).not.toContain("source ");
    expect(code).toContain("a[1]");
    expect(html("see [1]")).toContain("see [1]");
  });
});
