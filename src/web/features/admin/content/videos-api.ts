import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type AdminVideo, adminVideosApi as api, type VideoBody, type VideoPatchBody } from "../../../../shared/contracts/admin-videos.js";
import { publicContentApi } from "../../../../shared/contracts/public-content.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/getting-started-videos: every video, active or not, top first. */
export const adminVideosQuery = endpointQuery(api.list, {});
const key = adminVideosQuery.queryKey;

/** After any change: the admin list is read again, and so is the dashboard's (active videos only). */
function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: key });
    void client.invalidateQueries({ queryKey: endpointKey(publicContentApi.videos) });
  };
}

/** POST /api/admin/getting-started-videos (201). */
export function useCreateVideo() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: VideoBody) => call(api.create, { body }), onSuccess: refresh });
}

/** PATCH /api/admin/getting-started-videos/{id}: only the fields sent change. */
export function useUpdateVideo() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: VideoPatchBody }) => call(api.update, { params: { id }, body }),
    onSuccess: refresh,
  });
}

/** DELETE /api/admin/getting-started-videos/{id} (204). */
export function useDeleteVideo() {
  const client = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      client.setQueryData(key, (old) => old?.filter((v) => v.id !== id));
      refresh();
    },
  });
}

/**
 * POST /api/admin/getting-started-videos/reorder with the full new sequence. The table shows the new order at
 * once; a refusal puts the saved order back (read again from the server).
 */
export function useReorderVideos() {
  const client = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (videoIds: number[]) => call(api.reorder, { body: { videoIds } }),
    onMutate: async (videoIds) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData(key);
      if (before) {
        const byId = new Map(before.map((v) => [v.id, v]));
        const moved = videoIds.flatMap((id, index) => {
          const video = byId.get(id);
          return video ? [{ ...video, order: index + 1 }] : [];
        });
        client.setQueryData(key, moved);
      }
      return { before };
    },
    onSuccess: (saved: AdminVideo[]) => {
      client.setQueryData(key, saved);
      void client.invalidateQueries({ queryKey: endpointKey(publicContentApi.videos) });
    },
    onError: (_error, _ids, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      refresh();
    },
  });
}

/** The list with one video moved a step up or down: what the arrows send. */
export function movedSequence(videos: AdminVideo[], id: number, direction: "up" | "down"): number[] {
  const ids = videos.map((v) => v.id);
  const from = ids.indexOf(id);
  const to = direction === "up" ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return ids;
  [ids[from], ids[to]] = [ids[to] as number, ids[from] as number];
  return ids;
}
