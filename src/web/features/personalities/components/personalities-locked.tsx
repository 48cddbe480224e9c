import { GraduationCap, Lock, MessageSquareCode, PenLine } from "lucide-react";
import { UPGRADE_MESSAGE } from "../../../../shared/plan.js";
import { GetEarlyAccessButton } from "../../../components/get-early-access-button.js";
import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { PERSONALITIES_LOCKED } from "../../../domain/personalities.js";

/** Illustration only: what people make with the feature. Nothing here is saved or sent. */
const EXAMPLES = [
  {
    icon: GraduationCap,
    name: "Socratic Tutor",
    tone: "Socratic",
    text: "Answers a question with a better question, one step at a time, until you find the answer yourself.",
  },
  {
    icon: MessageSquareCode,
    name: "Code Reviewer",
    tone: "concise",
    text: "Reads your code like a senior colleague: bugs first, then naming and structure, in short bullet points.",
  },
  {
    icon: PenLine,
    name: "Writing Coach",
    tone: "friendly",
    text: "Keeps your voice, tightens your sentences and explains every change it suggests.",
  },
] as const;

/** The free plan's view of /personalities: what the feature is, examples, and how to get it. */
export function PersonalitiesLocked() {
  return (
    <div className="grid gap-6">
      <div role="status" className="flex items-start gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm">
        <Lock className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
        <div className="grid flex-1 gap-1">
          <p className="font-medium">{PERSONALITIES_LOCKED}</p>
          <p className="text-muted-foreground">{UPGRADE_MESSAGE}</p>
          <GetEarlyAccessButton className="mt-2 justify-self-start" />
        </div>
      </div>
      <p className="max-w-3xl text-muted-foreground">
        A training personality gives the assistant a role, a tone and standing instructions, with its own temperature, response length and
        preferred model. Pick one in a chat's header and every reply in that chat speaks as it.
      </p>
      <section aria-labelledby="personality-examples" className="grid gap-3">
        <h2 id="personality-examples" className="text-lg font-semibold">
          For example
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          {EXAMPLES.map(({ icon: Icon, name, tone, text }) => (
            <Card key={name} className="border-dashed">
              <CardHeader className="flex-row items-start gap-3">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div className="grid gap-1.5">
                  <CardTitle className="text-base">{name}</CardTitle>
                  <Badge variant="secondary" className="text-xs tracking-normal normal-case">
                    {tone}
                  </Badge>
                </div>
              </CardHeader>
              <CardContent>
                <CardDescription>{text}</CardDescription>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
