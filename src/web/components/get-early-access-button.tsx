import { Sparkles } from "lucide-react";
import { useId } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { usePaymentSettings } from "../domain/payment-settings.js";
import { cn } from "../lib/cn.js";
import { earlyAccessCheckoutPath } from "../lib/paths.js";
import { Button, type ButtonProps } from "./ui/button.js";

/** The checkout path that comes back to the page open now. */
export function useEarlyAccessCheckoutPath(): string {
  const [location] = useLocation();
  const search = useSearch();
  return earlyAccessCheckoutPath(`${location}${search ? `?${search}` : ""}`);
}

/**
 * "Get Early Access" for a signed-in free user, wherever the plan refuses something: opens the checkout
 * and comes back here once paid. While card payments are not set up it is disabled and says so.
 */
export function GetEarlyAccessButton({
  className,
  size = "sm",
  variant = "default",
}: {
  className?: string;
  size?: ButtonProps["size"];
  variant?: ButtonProps["variant"];
}) {
  const href = useEarlyAccessCheckoutPath();
  const { settings, isPending } = usePaymentSettings();
  const noteId = useId();
  if (!isPending && !settings.paymentsAvailable) {
    return (
      <span className={cn("inline-flex flex-wrap items-center gap-2", className)}>
        <Button size={size} variant={variant} disabled aria-describedby={noteId}>
          <Sparkles aria-hidden="true" />
          Get Early Access
        </Button>
        <span id={noteId} className="text-xs text-muted-foreground">
          Not available yet: card payments are not set up.
        </span>
      </span>
    );
  }
  return (
    <Button asChild size={size} variant={variant} className={className}>
      <Link href={href}>
        <Sparkles aria-hidden="true" />
        Get Early Access
      </Link>
    </Button>
  );
}
