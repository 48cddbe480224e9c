import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "../../lib/cn.js";
import { notify } from "../../lib/notify.js";
import { Button } from "../ui/button.js";

/** Copies text to the clipboard and says "Copied" for two seconds. */
export function CopyButton({
  getText,
  label = "Copy",
  showText = false,
  className,
}: {
  getText: () => string;
  label?: string;
  showText?: boolean;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(getText());
      setCopied(true);
    } catch {
      notify.error("Copy failed", "Your browser did not allow copying to the clipboard.");
    }
  };

  return (
    <Button
      variant="ghost"
      size={showText ? "sm" : "icon"}
      className={cn(showText ? "h-7 px-2" : "size-7", "text-muted-foreground hover:text-foreground", className)}
      aria-label={showText ? undefined : copied ? "Copied" : label}
      title={copied ? "Copied" : label}
      onClick={() => void copy()}
    >
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {showText ? <span aria-live="polite">{copied ? "Copied" : "Copy"}</span> : null}
    </Button>
  );
}
