/**
 * A `[n]` in a text that matches a known source: a small raised button opening it. `label` names the source. Its own
 * module: the chat draws it on its first screen, while the panel it opens (Radix Dialog) loads when first opened.
 */
export function SourceRef({ n, label, onOpen }: { n: number; label: string; onOpen: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onOpen}
      className="mx-0.5 inline-flex h-4 min-w-4 -translate-y-1 items-center justify-center rounded bg-primary/10 px-1 align-baseline text-[0.7rem] leading-none font-semibold text-primary outline-none hover:bg-primary/20 focus-visible:ring-2 focus-visible:ring-ring"
    >
      {n}
    </button>
  );
}
