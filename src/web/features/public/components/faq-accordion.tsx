import { ChevronDown } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import type { FaqCategory } from "./faq-content.js";

/** Arrow keys, Home and End move between every question of the page, as in WAI-ARIA's accordion pattern. */
const KEY_MOVES = new Map<string, (index: number, count: number) => number>([
  ["ArrowDown", (index, count) => (index + 1) % count],
  ["ArrowUp", (index, count) => (index - 1 + count) % count],
  ["Home", () => 0],
  ["End", (_index, count) => count - 1],
]);

function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const next = KEY_MOVES.get(event.key);
  if (!next || !(event.target instanceof HTMLElement)) return;
  const triggers = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-faq-trigger]")];
  const index = triggers.indexOf(event.target);
  if (index === -1) return;
  event.preventDefault();
  triggers[next(index, triggers.length)]?.focus();
}

/**
 * The FAQ's questions in their categories, one open at a time (and closable again): each question is a
 * button with aria-expanded and aria-controls in a heading, its answer a labelled region, always in the
 * page (hidden while closed) so a visitor without JavaScript and a search engine read every answer.
 */
export function FaqAccordion({ groups }: { groups: FaqCategory[] }) {
  const [open, setOpen] = useState<string | null>(null);
  const base = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys move between the question buttons inside
    <div className="grid gap-10" onKeyDown={moveFocus}>
      {groups.map((group) => (
        <section key={group.id} aria-labelledby={`faq-${group.id}`} className="grid gap-3">
          <h2 id={`faq-${group.id}`} className="text-2xl font-bold tracking-tight">
            {group.title}
          </h2>
          <div className="divide-y rounded-xl border bg-card shadow-sm">
            {group.entries.map((entry) => {
              const key = `${group.id}-${entry.id}`;
              const expanded = open === key;
              const triggerId = `${base}-${key}-question`;
              const panelId = `${base}-${key}-answer`;
              return (
                <div key={key}>
                  <h3 className="flex">
                    <button
                      type="button"
                      id={triggerId}
                      data-faq-trigger=""
                      aria-expanded={expanded}
                      aria-controls={panelId}
                      onClick={() => setOpen(expanded ? null : key)}
                      className="group flex w-full items-center justify-between gap-4 rounded-xl px-5 py-4 text-left font-medium outline-none transition-colors hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {entry.question}
                      <ChevronDown
                        className="size-5 shrink-0 text-muted-foreground transition-transform group-aria-expanded:rotate-180"
                        aria-hidden="true"
                      />
                    </button>
                  </h3>
                  <section id={panelId} aria-labelledby={triggerId} hidden={!expanded} className="px-5 pb-5 text-muted-foreground">
                    {entry.answer}
                  </section>
                </div>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
