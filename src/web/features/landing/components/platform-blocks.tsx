import { Check, Globe, type LucideIcon, Megaphone, ShieldCheck } from "lucide-react";
import { cn } from "../../../lib/cn.js";

const blocks: { id: string; icon: LucideIcon; eyebrow: string; title: string; text: string; points: string[] }[] = [
  {
    id: "hosting",
    icon: Globe,
    eyebrow: "Hosting",
    title: "Your courses, online and ready",
    text: "No servers to rent and nothing to install. Courses live on the platform the moment you publish them.",
    points: [
      "Drafts stay private until you publish",
      "Lessons read well on phones, tablets and desktops",
      "Modules and lessons kept in the order you set",
    ],
  },
  {
    id: "marketing",
    icon: Megaphone,
    eyebrow: "Marketing",
    title: "Words that sell your course",
    text: "A great course still needs a great pitch. The AI helps you write it in the voice of your audience.",
    points: [
      "Course descriptions written with AI",
      "Clear outlines that show what students will learn",
      "Personalities that keep your brand's tone everywhere",
    ],
  },
  {
    id: "security",
    icon: ShieldCheck,
    eyebrow: "Security",
    title: "Built to keep your work safe",
    text: "Your account, your payments and your content are protected at every step.",
    points: [
      "Card payments handled by Stripe: card numbers never reach our servers",
      "AI provider keys encrypted at rest",
      "Your data deleted on request",
    ],
  },
];

/** The hosting, marketing and security blocks, alternating sides on wide screens. */
export function PlatformBlocks() {
  return (
    <section aria-label="Hosting, marketing and security" className="mx-auto grid max-w-6xl gap-16 px-4 py-16 sm:px-6">
      {blocks.map(({ id, icon: Icon, eyebrow, title, text, points }, index) => (
        <article key={id} aria-labelledby={`${id}-heading`} className="grid items-center gap-8 md:grid-cols-2">
          <div className={cn("grid gap-4", index % 2 === 1 && "md:order-2")}>
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
            <h2 id={`${id}-heading`} className="text-3xl font-bold tracking-tight text-balance">
              {title}
            </h2>
            <p className="text-lg text-muted-foreground">{text}</p>
            <ul className="grid gap-2">
              {points.map((point) => (
                <li key={point} className="flex items-start gap-2">
                  <Check className="mt-1 size-4 shrink-0 text-primary" aria-hidden="true" />
                  <span>{point}</span>
                </li>
              ))}
            </ul>
          </div>
          <div
            aria-hidden="true"
            className="flex h-48 items-center justify-center rounded-2xl border bg-gradient-to-br from-primary/20 via-primary/5 to-transparent sm:h-64"
          >
            <span className="flex size-24 items-center justify-center rounded-3xl bg-background shadow-md">
              <Icon className="size-12 text-primary" />
            </span>
          </div>
        </article>
      ))}
    </section>
  );
}
