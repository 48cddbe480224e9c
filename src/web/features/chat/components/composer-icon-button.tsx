import type { ReactNode } from "react";
import { Button, type ButtonProps } from "../../../components/ui/button.js";
import { cn } from "../../../lib/cn.js";

/**
 * A button beside the message box that switches something on for the chat (Tools, a new chat's Knowledge): an icon,
 * 38 px (32 px wide on a phone, decision 066), primary with a count badge when `count` is more than 0. Its name is
 * `name`, or "<name>, <count> <countSuffix>" ("Tools, 2 on", "Knowledge, 1 collection"): the badge is the visible part.
 */
export function ComposerIconButton({
  icon,
  name,
  count,
  countSuffix,
  className,
  ...props
}: Omit<ButtonProps, "children"> & { icon: ReactNode; name: string; count: number; countSuffix: string }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn("relative size-[38px] shrink-0 text-muted-foreground max-sm:w-8", count > 0 && "text-primary", className)}
      title={name}
      {...props}
    >
      {icon}
      <span className="sr-only">{count > 0 ? `${name}, ` : name}</span>
      {count > 0 ? (
        <>
          <span className="absolute top-0.5 right-0.5 flex min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-4 font-semibold text-primary-foreground">
            {count}
          </span>
          <span className="sr-only"> {countSuffix}</span>
        </>
      ) : null}
    </Button>
  );
}
