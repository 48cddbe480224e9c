import { BookOpen, Bot, MessagesSquare, UserRound } from "lucide-react";
import { Badge } from "../../../components/ui/badge.js";

const features = [
  { icon: Bot, title: "Multiple AI Models", text: "Switch between leading models in one conversation view.", isNew: false },
  { icon: BookOpen, title: "Course AI Builder", text: "Turn a topic into a structured course with modules and lessons.", isNew: true },
  { icon: UserRound, title: "Training Personalities", text: "Save AI profiles with their own tone and parameters.", isNew: true },
  { icon: MessagesSquare, title: "Smart Chat Management", text: "Every chat kept, titled and easy to find again.", isNew: false },
] as const;

const providers = ["OpenAI", "Anthropic Claude", "Deepseek", "Mistral"] as const;

/** The panel beside the sign-in card: what Lumora offers and which providers it speaks to. */
export function MarketingPanel() {
  return (
    <section
      aria-labelledby="marketing-heading"
      className="flex flex-col gap-6 rounded-2xl bg-gradient-to-br from-primary/10 via-primary/5 to-transparent p-6 sm:p-8"
    >
      <div className="space-y-2">
        <h2 id="marketing-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          One workspace for every AI model
        </h2>
        <p className="text-muted-foreground">Chat with the best AI models, build courses with AI help and keep the assistants you train.</p>
      </div>
      <ul className="grid gap-4">
        {features.map(({ icon: Icon, title, text, isNew }) => (
          <li key={title} className="flex gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <p className="font-semibold">
                {title}
                {isNew ? (
                  <Badge variant="new" className="ml-2 align-middle">
                    NEW
                  </Badge>
                ) : null}
              </p>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
      <div className="space-y-2">
        <p className="text-sm font-medium">Works with</p>
        <ul className="flex flex-wrap gap-2">
          {providers.map((provider) => (
            <li key={provider} className="rounded-full border bg-background px-3 py-1 text-sm">
              {provider}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
