import { createElement, type ReactNode } from "react";
import rehypeHighlight from "rehype-highlight";

/** The parts of a hast tree that highlight.js hands back: spans with classes, and text. */
type HastNode =
  | { type: "text"; value: string }
  | { type: "element"; tagName: string; properties: { className?: string[] }; children: HastNode[] }
  | { type: "root"; children: HastNode[] };

type Transform = (tree: HastNode, file: { message: () => void }) => void;
const highlight = (rehypeHighlight as unknown as () => Transform)();

function toReact(node: HastNode, key: number): ReactNode {
  if (node.type === "text") return node.value;
  const children = node.children.map(toReact);
  if (node.type === "root") return children;
  return createElement(node.tagName, { key, className: node.properties.className?.join(" ") }, ...children);
}

/**
 * A code block's text highlighted as `language` (rehype-highlight, the same highlight.js grammars the markdown
 * used to run over every block at once): the code's children, as React nodes. The text alone when the language
 * is unknown or none was named.
 */
export function highlightCode(language: string | null, text: string): ReactNode {
  if (!language) return text;
  const code: HastNode = {
    type: "element",
    tagName: "code",
    properties: { className: [`language-${language}`] },
    children: [{ type: "text", value: text }],
  };
  const tree: HastNode = { type: "root", children: [{ type: "element", tagName: "pre", properties: {}, children: [code] }] };
  highlight(tree, { message: () => undefined }); // an unknown language is reported to the file, and left plain
  return code.children.map(toReact);
}
