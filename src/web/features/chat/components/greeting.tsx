import { Bot } from "lucide-react";

/** The empty chat says hi. */
export function Greeting({ name }: { name: string | null }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Bot className="size-6" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold">{name ? `Hi ${name}!` : "Hi there!"}</h2>
      <p className="text-sm text-muted-foreground">
        I'm your AI assistant. How can I help you today? You can ask me questions, seek advice, or just chat about whatever's on your mind.
      </p>
    </div>
  );
}
