import { Pencil, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { MoveButtons } from "./move-buttons.js";
import { Button } from "./ui/button.js";

/** What a row of an ordered list is told by its list: where it stands and what its actions do. */
export type OrderedItem = {
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (direction: "up" | "down") => void;
  onEdit: () => void;
  onDelete: () => void;
};

/**
 * Move up / down, Edit and Delete of one item of an ordered list (a module, a lesson, a quiz question): "Move Tides up",
 * "Edit lesson Tides" (`name` "Tides", `label` "lesson Tides"); `before`: an action of the item's own, first in the row.
 */
export function ItemActions({
  name,
  label,
  first,
  last,
  busy,
  before,
  onMove,
  onEdit,
  onDelete,
}: OrderedItem & { name: string; label: string; before?: ReactNode }) {
  return (
    <div className="ml-auto flex items-center">
      {before}
      <MoveButtons name={name} first={first} last={last} disabled={busy} onMove={onMove} />
      <Button variant="ghost" size="icon" className="size-8" aria-label={`Edit ${label}`} onClick={onEdit}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8 text-destructive hover:text-destructive"
        aria-label={`Delete ${label}`}
        onClick={onDelete}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}
