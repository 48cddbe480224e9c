import { BookOpen, Bot, History, PenLine, SlidersHorizontal, UserRound } from "lucide-react";
import { type FeatureCard, FeatureCards } from "../../../components/public-site/feature-cards.js";

const features: FeatureCard[] = [
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
    <FeatureCards id="features-heading" eyebrow="Features" title="Everything you need in one place" cards={features}>
      Chat, personalities and courses share one workspace, so nothing gets copied between tools.
    </FeatureCards>
  );
}
