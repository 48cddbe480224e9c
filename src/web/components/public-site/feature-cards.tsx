import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { SectionHeading } from "./section-heading.js";

export interface FeatureCard {
  icon: LucideIcon;
  title: string;
  text: string;
}

/** A tinted band of feature cards under a heading: the landing page's features and /features' platform. */
export function FeatureCards({
  id,
  eyebrow,
  title,
  cards,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  cards: readonly FeatureCard[];
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6">
        <SectionHeading id={id} eyebrow={eyebrow} title={title}>
          {children}
        </SectionHeading>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map(({ icon: Icon, title: cardTitle, text }) => (
            <li key={cardTitle} className="rounded-xl border bg-card p-6 shadow-sm">
              <span className="mb-4 flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="font-semibold">{cardTitle}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
