import { BookOpen, Bot, Eye, FileText, History, Lightbulb, ListTree, PenLine, Rocket, ShieldCheck, Target, UserRound } from "lucide-react";
import { CtaBand } from "../../../components/public-site/cta-band.js";
import { type FeatureCard, FeatureCards } from "../../../components/public-site/feature-cards.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { usePlanCallToAction } from "../../../domain/sign-up-link.js";
import { paths } from "../../../lib/paths.js";

const workflow: FeatureCard[] = [
  {
    icon: Lightbulb,
    title: "Pick a topic",
    text: "Start from what you know: a skill, a subject or a question your audience keeps asking.",
  },
  { icon: Target, title: "Define your niche", text: "Describe who the course is for, their level and the tone that suits them." },
  {
    icon: ListTree,
    title: "Generate the outline",
    text: "AI proposes modules and lessons. Review it and change what you like before anything is written.",
  },
  {
    icon: FileText,
    title: "Write the lessons",
    text: "Approve the outline and AI writes each lesson in turn. Stop and resume whenever you like.",
  },
  { icon: PenLine, title: "Refine and edit", text: "Polish every lesson in the editor, with help from the chat and your personalities." },
  { icon: Rocket, title: "Publish and share", text: "Make the course public when it is ready; drafts stay private until then." },
];

const platform: FeatureCard[] = [
  {
    icon: Bot,
    title: "Multi-Model AI Chat",
    text: "OpenAI, Anthropic Claude, Deepseek and Mistral in one chat. Compare answers and keep the best.",
  },
  {
    icon: UserRound,
    title: "Training Personalities",
    text: "Saved AI profiles with their own instructions, tone and settings, ready in any chat.",
  },
  { icon: BookOpen, title: "Course AI Builder", text: "From a topic and a niche to a structured course with modules and lessons." },
  { icon: Eye, title: "Readable lessons", text: "Headings, lists, tables and highlighted code: lessons look right on every screen." },
  { icon: History, title: "Smart Chat Management", text: "Every chat kept and titled, with history you can turn off for private work." },
  {
    icon: ShieldCheck,
    title: "Secure by design",
    text: "Stripe handles card payments, AI keys are encrypted at rest, and your data is deleted on request.",
  },
];

/** /features (docs/product.md, Public pages): the six-step creation workflow, six platform feature cards, and the way on. */
export function FeaturesPage() {
  const start = usePlanCallToAction("Get Started Free", paths.features);
  const name = usePlatformName();
  return (
    <PublicLayout>
      <section className="bg-gradient-to-b from-primary/10 to-transparent px-4 py-16 sm:px-6 lg:py-20">
        <SectionHeading as="h1" eyebrow="Features" title="Everything you need to create with AI">
          {name} combines a course builder, multi-model AI chat and Training Personalities, so your ideas become finished courses.
        </SectionHeading>
      </section>

      <section aria-labelledby="workflow-heading" className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6">
        <SectionHeading id="workflow-heading" eyebrow="Workflow" title="The creation workflow, in six steps" />
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {workflow.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="flex gap-4 rounded-xl border bg-card p-5 shadow-sm">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
                {index + 1}
              </span>
              <div className="grid gap-1">
                <h3 className="flex items-center gap-2 font-semibold">
                  <Icon className="size-4 text-primary" aria-hidden="true" />
                  {title}
                </h3>
                <p className="text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <FeatureCards id="platform-heading" eyebrow="Platform" title="Built for creators who use AI every day" cards={platform} />

      <CtaBand title="Start creating today" primary={start} secondary={{ href: paths.pricing, label: "View Pricing" }}>
        Create a free account, or see what Early Access unlocks.
      </CtaBand>
    </PublicLayout>
  );
}
