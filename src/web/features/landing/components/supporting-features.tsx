import { BookOpen, Bot, History, type LucideIcon, PenLine, SlidersHorizontal, UserRound } from "lucide-react";
import { SectionHeading } from "../../../components/public-site/section-heading.js";

const features: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Bot,
    title: "Multi-model AI chat",
    text: "OpenAI, Anthropic Claude, Deepseek and Mistral in one workspace. Pick the best model for each job.",
  },
  {
    icon: UserRound,
    title: "Training Personalities",
    text: "Save an assistant's instructions, tone and settings once, then bring it into any chat.",
  },
  {
    icon: BookOpen,
    title: "Course AI Builder",
    text: "Outlines, modules and lessons generated from your topic and niche, ready to review.",
  },
  { icon: PenLine, title: "Lesson editor", text: "Rewrite, reorder and refine every lesson. Generating never overwrites your edits." },
  { icon: History, title: "Smart chat history", text: "Every chat kept, titled from its first message and easy to find again." },
  {
    icon: SlidersHorizontal,
    title: "Your settings, your way",
    text: "Default model, response length and creativity: set them once and every new chat follows.",
  },
];

/** The supporting features, as cards. */
export function SupportingFeatures() {
  return (
    <section aria-labelledby="features-heading" className="bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6">
        <SectionHeading id="features-heading" eyebrow="Features" title="Everything you need in one place">
          Chat, personalities and courses share one workspace, so nothing gets copied between tools.
        </SectionHeading>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border bg-card p-6 shadow-sm">
              <span className="mb-4 flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
