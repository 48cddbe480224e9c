import { Children, type ComponentProps, isValidElement, memo, type ReactNode, useMemo, useRef } from "react";
import ReactMarkdown, { type Components, defaultUrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";
import { cn } from "../../lib/cn.js";
import { CopyButton } from "./copy-button.js";
import { highlightCode } from "./highlight-code.js";
import { type NumberedRefs, splitNumberedRefs } from "./numbered-refs.js";
import { useSeen } from "./use-seen.js";

/**
 * Only http, https, irc, ircs, mailto and xmpp links and
 * images survive, plus relative addresses; anything else (javascript:, data:,
 * vbscript:...) becomes "". react-markdown's own default does exactly that; it
 * is named here so the rule is visible and tested.
 */
export const safeUrlTransform = defaultUrlTransform;

/** GitHub-like highlight.js colours, light and dark (no global stylesheet needed). */
const highlightTheme = [
  "[&_.hljs-comment]:text-[#6a737d] dark:[&_.hljs-comment]:text-[#8b949e] [&_.hljs-comment]:italic",
  "[&_.hljs-quote]:text-[#6a737d] dark:[&_.hljs-quote]:text-[#8b949e]",
  "[&_.hljs-keyword]:text-[#cf222e] dark:[&_.hljs-keyword]:text-[#ff7b72]",
  "[&_.hljs-doctag]:text-[#cf222e] dark:[&_.hljs-doctag]:text-[#ff7b72]",
  "[&_.hljs-meta]:text-[#0550ae] dark:[&_.hljs-meta]:text-[#79c0ff]",
  "[&_.hljs-title]:text-[#8250df] dark:[&_.hljs-title]:text-[#d2a8ff]",
  "[&_.hljs-section]:text-[#0550ae] dark:[&_.hljs-section]:text-[#79c0ff] [&_.hljs-section]:font-semibold",
  "[&_.hljs-attr]:text-[#0550ae] dark:[&_.hljs-attr]:text-[#79c0ff]",
  "[&_.hljs-attribute]:text-[#0550ae] dark:[&_.hljs-attribute]:text-[#79c0ff]",
  "[&_.hljs-number]:text-[#0550ae] dark:[&_.hljs-number]:text-[#79c0ff]",
  "[&_.hljs-literal]:text-[#0550ae] dark:[&_.hljs-literal]:text-[#79c0ff]",
  "[&_.hljs-variable]:text-[#953800] dark:[&_.hljs-variable]:text-[#ffa657]",
  "[&_.hljs-template-variable]:text-[#953800] dark:[&_.hljs-template-variable]:text-[#ffa657]",
  "[&_.hljs-property]:text-[#0550ae] dark:[&_.hljs-property]:text-[#79c0ff]",
  "[&_.hljs-params]:text-inherit",
  "[&_.hljs-string]:text-[#0a3069] dark:[&_.hljs-string]:text-[#a5d6ff]",
  "[&_.hljs-regexp]:text-[#0a3069] dark:[&_.hljs-regexp]:text-[#a5d6ff]",
  "[&_.hljs-built_in]:text-[#953800] dark:[&_.hljs-built_in]:text-[#ffa657]",
  "[&_.hljs-type]:text-[#953800] dark:[&_.hljs-type]:text-[#ffa657]",
  "[&_.hljs-symbol]:text-[#953800] dark:[&_.hljs-symbol]:text-[#ffa657]",
  "[&_.hljs-bullet]:text-[#953800] dark:[&_.hljs-bullet]:text-[#ffa657]",
  "[&_.hljs-name]:text-[#116329] dark:[&_.hljs-name]:text-[#7ee787]",
  "[&_.hljs-tag]:text-[#116329] dark:[&_.hljs-tag]:text-[#7ee787]",
  "[&_.hljs-selector-tag]:text-[#116329] dark:[&_.hljs-selector-tag]:text-[#7ee787]",
  "[&_.hljs-selector-class]:text-[#0550ae] dark:[&_.hljs-selector-class]:text-[#79c0ff]",
  "[&_.hljs-selector-id]:text-[#0550ae] dark:[&_.hljs-selector-id]:text-[#79c0ff]",
  "[&_.hljs-addition]:bg-[#dafbe1] [&_.hljs-addition]:text-[#116329] dark:[&_.hljs-addition]:bg-[#033a16] dark:[&_.hljs-addition]:text-[#aff5b4]",
  "[&_.hljs-deletion]:bg-[#ffebe9] [&_.hljs-deletion]:text-[#82071e] dark:[&_.hljs-deletion]:bg-[#67060c] dark:[&_.hljs-deletion]:text-[#ffdcd7]",
  "[&_.hljs-emphasis]:italic [&_.hljs-strong]:font-semibold",
].join(" ");

/** Prose styles for markdown (there is no typography plugin). */
const proseClass = [
  "min-w-0 break-words text-sm leading-relaxed",
  "[&>*:first-child]:mt-0 [&>*:last-child]:mb-0",
  "[&_p]:my-2 [&_ul]:my-2 [&_ol]:my-2 [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-5 [&_ol]:pl-5 [&_li]:my-0.5",
  "[&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-xl [&_h1]:font-bold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold",
  "[&_h3]:mt-3 [&_h3]:mb-1.5 [&_h3]:font-semibold [&_h4]:mt-3 [&_h4]:mb-1 [&_h4]:font-semibold",
  "[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
  "[&_hr]:my-4 [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2",
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em]",
  "[&_table]:w-full [&_table]:border-collapse [&_th]:border [&_th]:bg-muted [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border [&_td]:px-2 [&_td]:py-1",
  "[&_img]:max-w-full [&_img]:rounded-md",
  highlightTheme,
].join(" ");

type CodeElement = { className?: string; children?: ReactNode };

function languageOf(children: ReactNode): string | null {
  if (!isValidElement<CodeElement>(children)) return null;
  return /language-([\w+#-]+)/.exec(children.props.className ?? "")?.[1] ?? null;
}

/** The plain text of a code element's children (a string, as react-markdown gives it). */
function textOf(children: ReactNode): string {
  return Children.toArray(children)
    .map((child) => (typeof child === "string" || typeof child === "number" ? String(child) : ""))
    .join("");
}

/**
 * A fenced code block: the language and a Copy button above the scrolling code. The code is highlighted once the
 * block first comes into view (issue 29): a long chat or lesson formats at once, and highlight.js runs only for
 * the blocks someone scrolls to. The scrolling code is a named region in the tab order, so a keyboard reaches and scrolls a
 * line wider than the screen (axe's scrollable-region-focusable).
 */
function CodeBlock({ node: _node, children, className, ...props }: ComponentProps<"pre"> & { node?: unknown }) {
  const ref = useRef<HTMLPreElement>(null);
  const language = languageOf(children);
  const seen = useSeen(ref);
  const code = isValidElement<CodeElement>(children) ? children : null;
  const text = code ? textOf(code.props.children) : "";
  const highlighted = useMemo(() => (seen && language ? highlightCode(language, text) : null), [seen, language, text]);
  return (
    <div className="my-3 overflow-hidden rounded-lg border bg-muted/60 dark:bg-black/30">
      <div className="flex items-center justify-between border-b px-3 py-1 text-xs text-muted-foreground">
        <span className="font-mono">{language ?? "code"}</span>
        <CopyButton showText getText={() => ref.current?.textContent ?? ""} label="Copy code" />
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: the code stays a <pre> (its white space); the role names the region */}
      <pre
        ref={ref}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard to be scrolled
        tabIndex={0}
        role="region"
        aria-label={language ? `Code, ${language}` : "Code"}
        className={cn(
          "overflow-x-auto p-3 font-mono text-[13px] leading-snug outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
          className,
        )}
        {...props}
      >
        {highlighted !== null && code ? <code className={cn(code.props.className, "hljs")}>{highlighted}</code> : children}
      </pre>
    </div>
  );
}

/** Links open in a new tab; a blanked (unsafe) address leaves plain text behind. */
function SafeLink({ node: _node, href, children, ...props }: ComponentProps<"a"> & { node?: unknown }) {
  if (!href) return <span className="font-medium">{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
    </a>
  );
}

/** A wide table scrolls sideways in its own region, which the keyboard reaches to scroll it, as a code block's. */
function Table({ node: _node, ...props }: ComponentProps<"table"> & { node?: unknown }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <section> would add a landmark per table; the role names the region
    <div
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard to be scrolled
      tabIndex={0}
      role="region"
      aria-label="Table"
      className="my-3 overflow-x-auto rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table {...props} />
    </div>
  );
}

function SafeImage({ node: _node, src, alt, ...props }: ComponentProps<"img"> & { node?: unknown }) {
  if (!src) return alt ? <span>{alt}</span> : null;
  return <img src={src} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" {...props} />;
}

const components: Components = { pre: CodeBlock, a: SafeLink, table: Table, img: SafeImage };
const remarkPlugins = [remarkGfm];

type MdNode = { type: string; value?: string; children?: MdNode[]; data?: Record<string, unknown> };

/**
 * A remark step: in plain text (not code, not inside a link), each `[n]` whose n is known becomes a marked `sup`
 * that the `sup` component draws with `render`; an unknown `[n]` stays text.
 */
function remarkNumberedRefs(numbers: ReadonlySet<number>) {
  const split = (value: string): MdNode[] =>
    splitNumberedRefs(value, numbers).map((part) =>
      typeof part === "string"
        ? { type: "text", value: part }
        : {
            type: "numberedRef",
            data: { hName: "sup", hProperties: { dataRef: String(part) } },
            children: [{ type: "text", value: `[${part}]` }],
          },
    );
  const walk = (node: MdNode) => {
    if (!node.children || node.type === "link" || node.type === "linkReference") return;
    node.children = node.children.flatMap((child) => {
      if (child.type === "text" && child.value) return split(child.value);
      walk(child);
      return [child];
    });
  };
  return () => (tree: MdNode) => walk(tree);
}

/**
 * Markdown of an AI reply: GitHub-flavoured, code highlighted once in view, raw HTML shown
 * as text (no rehype-raw), only safe URL schemes kept. `refs`: numbered references drawn by the caller.
 */
export const Markdown = memo(function Markdown({ content, className, refs }: { content: string; className?: string; refs?: NumberedRefs }) {
  const plugins = useMemo(() => (refs ? [remarkGfm, remarkNumberedRefs(refs.numbers)] : remarkPlugins), [refs]);
  const drawn = useMemo<Components>(
    () =>
      refs
        ? {
            ...components,
            sup: ({ node: _node, children, ...props }) => {
              const n = Number((props as Record<string, unknown>)["data-ref"]);
              return Number.isInteger(n) && refs.numbers.has(n) ? refs.render(n) : <sup {...props}>{children}</sup>;
            },
          }
        : components,
    [refs],
  );
  return (
    <div className={cn(proseClass, className)}>
      <ReactMarkdown remarkPlugins={plugins} urlTransform={safeUrlTransform} components={drawn}>
        {content}
      </ReactMarkdown>
    </div>
  );
});
