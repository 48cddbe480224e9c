import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { hasEarlyAccess } from "../../../../shared/plan.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { personalitiesQuery } from "../../../domain/personalities.js";
import { useCurrentUser } from "../../../domain/session.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { refreshPlanOn403 } from "../api.js";
import { PersonalitiesLocked } from "../components/personalities-locked.js";
import { PersonalityDialog } from "../components/personality-dialog.js";
import { PersonalityGrid } from "../components/personality-grid.js";

/** /personalities: the user's training personalities (Early Access); the free plan sees what they are and how to get them. */
export function PersonalitiesPage() {
  usePageTitle("Personalities");
  const { user } = useCurrentUser();
  const entitled = hasEarlyAccess(user);
  const client = useQueryClient();
  const list = useQuery({ ...personalitiesQuery, enabled: entitled });
  const [creating, setCreating] = useState(false);
  const refused = isApiError(list.error) && list.error.status === 403;
  const locked = !entitled || refused;

  useEffect(() => {
    if (list.error) refreshPlanOn403(client, list.error);
  }, [client, list.error]);

  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Training Personalities</h1>
          <p className="text-muted-foreground">Reusable AI profiles with a role, a tone and their own parameters.</p>
        </div>
        {locked ? null : (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New Personality
          </Button>
        )}
      </div>
      {locked ? (
        <PersonalitiesLocked />
      ) : list.isPending ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner label="Loading personalities..." />
          <span aria-hidden="true">Loading personalities...</span>
        </div>
      ) : list.isError ? (
        <Card>
          <CardContent className="grid justify-items-start gap-3 pt-6">
            <p className="font-medium">Failed to load personalities.</p>
            <p className="text-sm text-muted-foreground">{errorMessage(list.error)}</p>
            <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
              <RefreshCw aria-hidden="true" className={list.isFetching ? "animate-spin" : undefined} />
              Retry
            </Button>
          </CardContent>
        </Card>
      ) : (
        <PersonalityGrid personalities={list.data} />
      )}
      {creating && !locked ? <PersonalityDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
