import { Lightbulb, type LucideIcon, Target, Wand2 } from "lucide-react";
import { SectionHeading } from "../../../components/public-site/section-heading.js";

const steps: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Lightbulb,
    title: "Choose your topic",
    text: "Say what you want to teach: a skill, a subject, or the expertise you already have.",
  },
  {
    icon: Target,
    title: "Define your niche",
    text: "Name the audience, their level and the tone, so the course fits the people you teach.",
  },
  {
    icon: Wand2,
    title: "Generate your content",
    text: "AI drafts the outline, the modules and every lesson. Review it, edit anything, and publish.",
  },
];

/** The 3-step workflow (topic, niche, content generation). */
export function WorkflowSteps() {
  return (
    <section aria-labelledby="workflow-heading" className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6">
      <SectionHeading id="workflow-heading" eyebrow="How it works" title="From idea to course in three steps">
        No blank page: you bring what you know, the AI does the heavy lifting.
      </SectionHeading>
      <ol className="grid gap-6 md:grid-cols-3">
        {steps.map(({ icon: Icon, title, text }, index) => (
          <li key={title} className="relative grid gap-3 rounded-xl border bg-card p-6 shadow-sm">
            <div className="flex items-center gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
                {index + 1}
              </span>
              <Icon className="size-5 text-primary" aria-hidden="true" />
            </div>
            <h3 className="text-lg font-semibold">{title}</h3>
            <p className="text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
