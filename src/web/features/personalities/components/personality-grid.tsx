import { useState } from "react";
import type { Personality } from "../../../../shared/contracts/personalities.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { DeletePersonalityDialog } from "./delete-personality-dialog.js";
import { PersonalityCard } from "./personality-card.js";
import { PersonalityDialog } from "./personality-dialog.js";

/** The cards, with the Edit dialog and the Delete confirmation. */
export function PersonalityGrid({ personalities }: { personalities: Personality[] }) {
  const [editing, setEditing] = useState<Personality | null>(null);
  const [deleting, setDeleting] = useState<Personality | null>(null);
  if (personalities.length === 0) {
    return (
      <Card>
        <CardContent className="pt-6 text-center text-sm text-muted-foreground">
          No personalities yet. Create one to give the assistant a role, a tone and instructions.
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      <div className="grid items-stretch gap-4 lg:grid-cols-2">
        {personalities.map((personality) => (
          <PersonalityCard
            key={personality.id}
            personality={personality}
            onEdit={() => setEditing(personality)}
            onDelete={() => setDeleting(personality)}
          />
        ))}
      </div>
      {editing ? <PersonalityDialog personality={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeletePersonalityDialog personality={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
