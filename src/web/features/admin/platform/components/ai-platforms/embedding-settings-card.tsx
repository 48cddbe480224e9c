import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";
import { EMBEDDING_MODEL_MAX, EMBEDDING_MODEL_PLACEHOLDER, NO_PGVECTOR } from "../../../../../../shared/contracts/embedding-settings.js";
import { Alert } from "../../../../../components/ui/alert.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";
import { Input } from "../../../../../components/ui/input.js";
import { Label } from "../../../../../components/ui/label.js";
import { LoadFailed } from "../../../../../components/ui/load-failed.js";
import { NativeSelect } from "../../../../../components/ui/native-select.js";
import { Spinner } from "../../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { embeddingSettingsQuery, useUpdateEmbeddingSettings } from "../../api.js";

/** The kinds with embedding models (the server refuses the others with the same words). */
const EMBEDDING_KINDS = new Set(["openai", "mistral", "openai-compatible"]);

/**
 * The knowledge library's embedding model (issue 30): a platform and a model, or none (full text only). Saving a new
 * one re-embeds every file in the background; the card shows how far that has come, reading it again while it runs.
 */
export function EmbeddingSettingsCard({ platforms }: { platforms: AdminPlatform[] }) {
  const [polling, setPolling] = useState(false);
  const settings = useQuery({ ...embeddingSettingsQuery, refetchInterval: polling ? 2000 : false });
  const save = useUpdateEmbeddingSettings();
  const [platformSlug, setPlatformSlug] = useState("");
  const [model, setModel] = useState("");
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (!settings.data || loaded) return;
    setPlatformSlug(settings.data.platformSlug ?? "");
    setModel(settings.data.model ?? "");
    setLoaded(true);
  }, [settings.data, loaded]);

  const reindex = settings.data?.reindex;
  const running = !!reindex && !!settings.data?.model && reindex.done < reindex.total;
  useEffect(() => setPolling(running), [running]);

  const choices = platforms.filter((p) => EMBEDDING_KINDS.has(p.kind));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const none = platformSlug === "";
    save.mutate({ platformSlug: none ? null : platformSlug, model: none ? null : model.trim() || null });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Embeddings for the knowledge library</CardTitle>
        <CardDescription>
          The model that turns files into vectors, so searches find passages by meaning. With none, searches use full text only.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {settings.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading embedding settings..." />
            <span aria-hidden="true">Loading embedding settings...</span>
          </div>
        ) : settings.isError ? (
          <LoadFailed
            title="Failed to load the embedding settings."
            error={settings.error}
            retrying={settings.isFetching}
            onRetry={() => void settings.refetch()}
          />
        ) : (
          <>
            {settings.data.vectorAvailable ? null : <Alert>{NO_PGVECTOR}</Alert>}
            <form className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={onSubmit}>
              <div className="grid gap-2">
                <Label htmlFor="embedding-platform">Platform</Label>
                <NativeSelect id="embedding-platform" value={platformSlug} onChange={(event) => setPlatformSlug(event.target.value)}>
                  <option value="">None (full text only)</option>
                  {choices.map((p) => (
                    <option key={p.slug} value={p.slug}>
                      {p.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-2">
                <Label htmlFor="embedding-model">Model</Label>
                <Input
                  id="embedding-model"
                  value={model}
                  maxLength={EMBEDDING_MODEL_MAX}
                  placeholder={EMBEDDING_MODEL_PLACEHOLDER}
                  disabled={platformSlug === ""}
                  required={platformSlug !== ""}
                  onChange={(event) => setModel(event.target.value)}
                />
              </div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving..." : "Save"}
              </Button>
            </form>
            {save.isError ? <Alert variant="destructive">{errorMessage(save.error)}</Alert> : null}
            {settings.data.model && reindex ? (
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {reindex.total === 0
                  ? "No files to index yet."
                  : reindex.done < reindex.total
                    ? `Re-indexing: ${reindex.done} of ${reindex.total} files done.`
                    : `All ${reindex.total} files are indexed with this model.`}
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
