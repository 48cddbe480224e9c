import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { chatsApi } from "../../../shared/contracts/chat.js";
import {
  personalitiesApi as api,
  type Personality,
  type PersonalityBody,
  type UpdatePersonalityBody,
} from "../../../shared/contracts/personalities.js";
import { personalitiesQuery } from "../../domain/personalities.js";
import { currentUserQuery } from "../../domain/session.js";
import { call, endpointKey, isApiError } from "../../lib/api-client.js";

const key = personalitiesQuery.queryKey;

/** Newest first, as the server lists them. */
function putFirst(client: QueryClient, saved: Personality) {
  client.setQueryData(key, (old) => (old ? [saved, ...old.filter((p) => p.id !== saved.id)] : old));
}

/** A 403 means the plan changed since the page loaded: read the user again so every screen shows the locked state. */
export function refreshPlanOn403(client: QueryClient, error: unknown) {
  if (isApiError(error) && error.status === 403) void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
}

/** POST /api/personalities. */
export function useCreatePersonality() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PersonalityBody) => call(api.create, { body }),
    onSuccess: (saved) => putFirst(client, saved),
    onError: (error) => refreshPlanOn403(client, error),
  });
}

/** PATCH /api/personalities/{id}. */
export function useUpdatePersonality() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdatePersonalityBody }) => call(api.update, { params: { id }, body }),
    onSuccess: (saved) => client.setQueryData(key, (old) => old?.map((p) => (p.id === saved.id ? saved : p))),
    onError: (error) => refreshPlanOn403(client, error),
  });
}

/** DELETE /api/personalities/{id}: chats that used it go back to the default assistant, so cached chats are read again. */
export function useDeletePersonality() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      client.setQueryData(key, (old) => old?.filter((p) => p.id !== id));
      void client.invalidateQueries({ queryKey: endpointKey(chatsApi.get) });
      void client.invalidateQueries({ queryKey: endpointKey(chatsApi.list) });
    },
    onError: (error) => refreshPlanOn403(client, error),
  });
}
