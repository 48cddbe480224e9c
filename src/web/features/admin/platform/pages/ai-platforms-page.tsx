import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import type { AdminPlatform } from "../../../../../shared/contracts/ai-platforms.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { adminPlatformsQuery } from "../api.js";
import { EmbeddingSettingsCard } from "../components/ai-platforms/embedding-settings-card.js";
import { PlatformCard } from "../components/ai-platforms/platform-card.js";
import { PlatformCreateForm } from "../components/ai-platforms/platform-create-form.js";

function PlatformGrid({ platforms }: { platforms: AdminPlatform[] }) {
  const [editingId, setEditingId] = useState<number | null>(null);
  if (platforms.length === 0) {
    return (
      <Card>
        <CardContent className="pt-6 text-center text-sm text-muted-foreground">
          No AI platforms yet. Add one to start chatting.
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid items-start gap-4 lg:grid-cols-2">
      {platforms.map((platform) => (
        <PlatformCard
          key={platform.id}
          platform={platform}
          editing={editingId === platform.id}
          editLocked={editingId !== null && editingId !== platform.id}
          onEdit={() => setEditingId(platform.id)}
          onDone={() => setEditingId(null)}
        />
      ))}
    </div>
  );
}

/** /admin/ai-platforms: AI Chat Settings, a card per platform and a create form. */
export function AiPlatformsPage() {
  usePageTitle("AI Chat Settings", "Admin");
  const platforms = useQuery(adminPlatformsQuery);
  const [creating, setCreating] = useState(false);

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">AI Chat Settings</h1>
            <p className="text-muted-foreground">The AI providers people chat with. Keys are stored encrypted and never shown again.</p>
          </div>
          {creating ? null : (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              Add Platform
            </Button>
          )}
        </div>
        {creating ? <PlatformCreateForm onDone={() => setCreating(false)} /> : null}
        {platforms.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading AI platforms..." />
            <span aria-hidden="true">Loading AI platforms...</span>
          </div>
        ) : platforms.isError ? (
          <LoadFailed
            title="Failed to load AI platforms."
            error={platforms.error}
            retrying={platforms.isFetching}
            onRetry={() => void platforms.refetch()}
          />
        ) : (
          <>
            <PlatformGrid platforms={platforms.data} />
            <EmbeddingSettingsCard platforms={platforms.data} />
          </>
        )}
      </div>
    </AdminShell>
  );
}
