import { ArrowDown, ArrowUp } from "lucide-react";
import { Button } from "./ui/button.js";

/** Up / Down, one step; the first cannot go up and the last cannot go down. */
export function MoveButtons({
  name,
  first,
  last,
  disabled,
  onMove,
}: {
  name: string;
  first: boolean;
  last: boolean;
  disabled?: boolean;
  onMove: (direction: "up" | "down") => void;
}) {
  return (
    <div className="flex">
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        disabled={disabled || first}
        aria-label={`Move ${name} up`}
        onClick={() => onMove("up")}
      >
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        disabled={disabled || last}
        aria-label={`Move ${name} down`}
        onClick={() => onMove("down")}
      >
        <ArrowDown aria-hidden="true" />
      </Button>
    </div>
  );
}
