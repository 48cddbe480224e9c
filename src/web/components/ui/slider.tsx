import { Slider as SliderPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn.js";

/** A single-thumb slider; pass aria-label or aria-labelledby for the thumb via `thumbLabel`. */
export function Slider({
  className,
  thumbLabel,
  thumbLabelledBy,
  ...props
}: ComponentProps<typeof SliderPrimitive.Root> & { thumbLabel?: string; thumbLabelledBy?: string }) {
  return (
    <SliderPrimitive.Root
      className={cn("relative flex w-full touch-none items-center py-2 select-none data-[disabled]:opacity-50", className)}
      {...props}
    >
      <SliderPrimitive.Track className="relative h-1.5 w-full grow overflow-hidden rounded-full bg-muted">
        <SliderPrimitive.Range className="absolute h-full bg-primary" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-label={thumbLabel}
        aria-labelledby={thumbLabelledBy}
        className="block size-5 rounded-full border-2 border-primary bg-background shadow-sm transition-[box-shadow] outline-none hover:ring-4 hover:ring-ring/30 focus-visible:ring-4 focus-visible:ring-ring/50"
      />
    </SliderPrimitive.Root>
  );
}
