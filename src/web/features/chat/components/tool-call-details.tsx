import type { ToolCall } from "../../../../shared/contracts/tools.js";

/** The arguments as the model wrote them, indented when they are JSON. */
function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2) ?? "";
  } catch {
    return String(args);
  }
}

/** Why there is no result yet, or none. */
function noResult(status: ToolCall["status"]): string {
  if (status === "running") return "Waiting for the result…";
  if (status === "awaiting-approval") return "Not run yet: it waits for your approval.";
  if (status === "denied") return "Not run: you denied this call.";
  return "No result.";
}

const blockClass =
  "max-h-64 overflow-auto rounded-md bg-muted px-2.5 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-words outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50";

/**
 * An opened tool card: where the tool comes from, its arguments and its result. The result is untrusted text from
 * the tool: shown as text (React escapes it), never as HTML or markdown; a long one scrolls inside its box.
 */
export function ToolCallDetails({ call, source }: { call: ToolCall; source: string }) {
  return (
    <div className="grid gap-2 px-3 py-2.5">
      <p className="text-xs text-muted-foreground sm:hidden">{source}</p>
      <figure className="grid gap-1">
        <figcaption className="text-xs font-medium text-muted-foreground">Arguments</figcaption>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard. */}
        <pre tabIndex={0} className={blockClass}>
          {argumentsText(call.args)}
        </pre>
      </figure>
      <figure className="grid gap-1">
        <figcaption className="text-xs font-medium text-muted-foreground">Result</figcaption>
        {call.result === null ? (
          <p className="text-xs text-muted-foreground italic">{noResult(call.status)}</p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard.
          <pre tabIndex={0} data-tool-result className={blockClass}>
            {call.result}
          </pre>
        )}
      </figure>
    </div>
  );
}
