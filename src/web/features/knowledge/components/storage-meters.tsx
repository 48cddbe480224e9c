import { useId } from "react";
import type { StorageUsage } from "../../../../shared/contracts/knowledge.js";
import { nearlyFull, storageLines } from "../../../domain/storage-usage.js";
import { cn } from "../../../lib/cn.js";

/**
 * The library against the plan, one meter per limit (decision 068): the bytes stored ("12.4 MB of 50 MB") and the
 * number of files ("3 of 20 files"), each with its own label, words and bar, so neither speaks for the other. A
 * limit the plan does not set shows its words without a bar.
 */
export function StorageMeters({ storage }: { storage: StorageUsage }) {
  const id = useId();
  return (
    <section aria-label="Library storage" data-testid="knowledge-storage" className="grid max-w-2xl gap-x-8 gap-y-3 sm:grid-cols-2">
      {storageLines(storage).map((line) => {
        const labelId = `${id}-${line.key}`;
        const full = nearlyFull(line);
        return (
          <div key={line.key} data-testid={`knowledge-storage-${line.key}`} className="grid content-start gap-1.5">
            <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
              <span id={labelId} className="font-medium">
                {line.label}
              </span>
              <span className={cn("text-muted-foreground", full && "font-medium text-amber-700 dark:text-amber-300")}>{line.text}</span>
            </p>
            {line.shareUsed !== null && line.max !== null ? (
              // biome-ignore lint/a11y/useSemanticElements: a native <meter> is drawn by each browser's own pseudo-elements (and colours); this bar is drawn like the plan's other bars and tells assistive technology the same.
              <div
                role="meter"
                aria-labelledby={labelId}
                aria-valuemin={0}
                aria-valuemax={line.max}
                aria-valuenow={Math.min(line.value, line.max)}
                aria-valuetext={line.text}
                className="h-1.5 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className={cn("h-full rounded-full", full ? "bg-amber-500" : "bg-primary/70")}
                  style={{ width: `${Math.round(line.shareUsed * 100)}%` }}
                />
              </div>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
