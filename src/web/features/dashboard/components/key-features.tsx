import { BookOpen, Bot, MessagesSquare, ShieldCheck, SlidersHorizontal, UserRound } from "lucide-react";
import { Card, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";

const features = [
  {
    icon: Bot,
    title: "Multiple AI Models",
    text: "Chat with OpenAI, Anthropic Claude, Deepseek and Mistral from one place, and switch at any time.",
  },
  {
    icon: BookOpen,
    title: "Course AI Builder",
    text: "Describe a topic and get a course outline with modules and lessons you can edit and publish.",
  },
  {
    icon: UserRound,
    title: "Training Personalities",
    text: "Save AI profiles with their own tone and parameters and reuse them in any chat.",
  },
  {
    icon: MessagesSquare,
    title: "Smart Chat Management",
    text: "Every conversation is kept and titled, so you can pick up where you left off.",
  },
  {
    icon: SlidersHorizontal,
    title: "AI Preferences",
    text: "Choose your default model, temperature and response length in your settings.",
  },
  { icon: ShieldCheck, title: "Secure & Private", text: "Your chats and courses are yours: private by default and protected in transit." },
] as const;

export function KeyFeatures() {
  return (
    <section aria-labelledby="key-features-heading" className="grid gap-4">
      <h2 id="key-features-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
        Key Features
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="h-full">
              <CardHeader>
                <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <CardTitle className="text-base">{title}</CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
