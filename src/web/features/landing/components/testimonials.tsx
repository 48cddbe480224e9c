import { Quote } from "lucide-react";
import { SectionHeading } from "../../../components/public-site/section-heading.js";

const testimonials = [
  {
    quote: "I had a workshop in my head for two years. The outline was ready in an afternoon, and the lessons sounded like me.",
    name: "Maria Santos",
    role: "Yoga instructor",
  },
  {
    quote: "I compare Claude and OpenAI answers side by side before I teach. Having every model in one place saves me hours each week.",
    name: "David Kim",
    role: "Software trainer",
  },
  {
    quote: "My Spanish tutor personality keeps the same patient tone in every chat. My students noticed the difference.",
    name: "Priya Raman",
    role: "Language coach",
  },
] as const;

function initials(name: string): string {
  return name
    .split(" ")
    .map((part) => part[0])
    .join("")
    .slice(0, 2);
}

/** What creators say. */
export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-heading" className="bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6">
        <SectionHeading id="testimonials-heading" eyebrow="Testimonials" title="Loved by creators and teachers" />
        <ul className="grid gap-4 md:grid-cols-3">
          {testimonials.map(({ quote, name, role }) => (
            <li key={name}>
              <figure className="flex h-full flex-col gap-4 rounded-xl border bg-card p-6 shadow-sm">
                <Quote className="size-6 text-primary" aria-hidden="true" />
                <blockquote className="flex-1 text-pretty">{quote}</blockquote>
                <figcaption className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/15 text-sm font-semibold text-primary dark:text-foreground"
                  >
                    {initials(name)}
                  </span>
                  <span className="grid text-sm">
                    <span className="font-semibold">{name}</span>
                    <span className="text-muted-foreground">{role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
