import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type AdminPlatform,
  aiPlatformsApi as api,
  type CreatePlatformBody,
  type UpdatePlatformBody,
} from "../../../../shared/contracts/ai-platforms.js";
import { embeddingSettingsApi } from "../../../../shared/contracts/embedding-settings.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { adminPlatformSettingsQuery } from "../common/api.js";

/** GET /api/ai-platforms (admins): every platform, with a key hint, never the key. */
export const adminPlatformsQuery = endpointQuery(api.list, {});

/** What the model pickers read (GET /api/ai/platforms); refreshed after any change here. */
const chatPlatformsKey = endpointKey(api.forChat);

function useRefreshPlatforms() {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: adminPlatformsQuery.queryKey }),
      client.invalidateQueries({ queryKey: chatPlatformsKey }),
      // The default model in force follows the platforms while none chosen is offered (decision 061).
      client.invalidateQueries({ queryKey: adminPlatformSettingsQuery.queryKey }),
    ]);
  };
}

/** Puts a saved platform into the cached list at once, so the card never shows stale values while the list refetches. */
function useStorePlatform() {
  const client = useQueryClient();
  return (saved: AdminPlatform) =>
    client.setQueryData(adminPlatformsQuery.queryKey, (list) =>
      list ? (list.some((p) => p.id === saved.id) ? list.map((p) => (p.id === saved.id ? saved : p)) : [...list, saved]) : list,
    );
}

/** POST /api/admin/ai-platforms. */
export function useCreatePlatform() {
  const store = useStorePlatform();
  const refresh = useRefreshPlatforms();
  return useMutation({
    mutationFn: (body: CreatePlatformBody) => call(api.create, { body }),
    onSuccess: (saved) => {
      store(saved);
      void refresh();
    },
  });
}

/** PATCH /api/admin/ai-platforms/{id}: settings and key, or { status: "inactive" } to disable. */
export function useUpdatePlatform() {
  const store = useStorePlatform();
  const refresh = useRefreshPlatforms();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdatePlatformBody }) => call(api.update, { params: { id }, body }),
    onSuccess: (saved) => {
      store(saved);
      void refresh();
    },
  });
}

/** POST /api/admin/ai-platforms/{id}/test: one short request to the provider with the stored settings. */
/** A connection test: passed or failed, the server keeps its result, and the cards read it again. */
export function useTestPlatform() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.test, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminPlatformsQuery.queryKey }),
  });
}

/** GET /api/admin/embedding-settings: the embedding model, pgvector's presence and the re-index progress. */
export const embeddingSettingsQuery = endpointQuery(embeddingSettingsApi.get, {});

/** PUT /api/admin/embedding-settings: a new model re-embeds every file in the background. */
export function useUpdateEmbeddingSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { platformSlug: string | null; model: string | null }) => call(embeddingSettingsApi.update, { body }),
    onSuccess: (saved) => client.setQueryData(embeddingSettingsQuery.queryKey, saved),
  });
}
