import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type AiPrompt, type AiPromptBody, aiPromptsApi as api, type UpdateAiPromptBody } from "../../../../shared/contracts/ai-prompts.js";
import { call } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/global-ai-prompts: every prompt, by key. */
export const aiPromptsQuery = endpointQuery(api.list, {});

const byKey = (list: AiPrompt[]) => [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** POST /api/admin/global-ai-prompts. */
export function useCreatePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AiPromptBody) => call(api.create, { body }),
    onSuccess: (saved) => client.setQueryData(aiPromptsQuery.queryKey, (old) => (old ? byKey([...old, saved]) : old)),
  });
}

/** PATCH /api/admin/global-ai-prompts/{id}. */
export function useUpdatePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateAiPromptBody }) => call(api.update, { params: { id }, body }),
    onSuccess: (saved) =>
      client.setQueryData(aiPromptsQuery.queryKey, (old) => (old ? byKey(old.map((p) => (p.id === saved.id ? saved : p))) : old)),
  });
}

/** DELETE /api/admin/global-ai-prompts/{id}. */
export function useDeletePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => client.setQueryData(aiPromptsQuery.queryKey, (old) => old?.filter((p) => p.id !== id)),
  });
}
