import type { ReactNode } from "react";
import { cn } from "../../lib/cn.js";

/** A public section's eyebrow, heading and lead, centred. `as="h1"` for a page's own heading. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  as: Heading = "h2",
  className,
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  children?: ReactNode;
  as?: "h1" | "h2";
  className?: string;
}) {
  return (
    <div className={cn("mx-auto grid max-w-3xl gap-3 text-center", className)}>
      {eyebrow ? <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p> : null}
      <Heading
        id={id}
        className={cn("font-bold tracking-tight text-balance", Heading === "h1" ? "text-4xl sm:text-5xl" : "text-3xl sm:text-4xl")}
      >
        {title}
      </Heading>
      {children ? <p className="text-lg text-pretty text-muted-foreground">{children}</p> : null}
    </div>
  );
}
