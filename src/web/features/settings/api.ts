import { useMutation, useQueryClient } from "@tanstack/react-query";
import { tokensApi } from "../../../shared/contracts/api-tokens.js";
import { settingsApi, type UserSettings } from "../../../shared/contracts/settings.js";
import { type PasswordChangeBody, type ProfileBody, userApi } from "../../../shared/contracts/user.js";
import { setCurrentUser } from "../../domain/session.js";
import { call, endpointKey, errorMessage } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { notify } from "../../lib/notify.js";

/** GET /api/user/settings. */
export const userSettingsQuery = endpointQuery(settingsApi.get, {});

type SettingKey = keyof UserSettings;
export type SettingChange = { [K in SettingKey]: { key: K; value: UserSettings[K] } }[SettingKey];

/**
 * PATCH /api/user/settings with exactly one field. The control moves at once
 * (optimistic) and goes back to the saved value if the server refuses.
 */
export function useUpdateSetting() {
  const client = useQueryClient();
  const key = userSettingsQuery.queryKey;
  return useMutation({
    mutationFn: ({ key: field, value }: SettingChange) => call(settingsApi.update, { body: { [field]: value } }),
    onMutate: async ({ key: field, value }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData(key)?.[field];
      client.setQueryData(key, (old) => (old ? { ...old, [field]: value } : old));
      return { field, previous };
    },
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      notify.success("Settings updated");
    },
    onError: (error, _change, context) => {
      if (context && context.previous !== undefined) {
        client.setQueryData(key, (old) => (old ? { ...old, [context.field]: context.previous } : old));
      }
      notify.error("Update failed", errorMessage(error));
    },
  });
}

/** PATCH /api/user (name, email). */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => call(userApi.updateProfile, { body }),
    onSuccess: (user) => setCurrentUser(client, user),
  });
}

/** PATCH /api/user/password. The server signs out the user's other sessions. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeBody) => call(userApi.changePassword, { body }),
    // The change may have revoked the API tokens (decision 056): the Developer tab reads them again.
    onSuccess: () => void client.invalidateQueries({ queryKey: endpointKey(tokensApi.list) }),
  });
}

/** POST /api/user/avatar (multipart, field "file"); the new photo shows everywhere. */
export function useUploadAvatar() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const data = new FormData();
      data.append("file", file);
      return call(userApi.uploadAvatar, { body: data });
    },
    onSuccess: (user) => {
      setCurrentUser(client, user);
      notify.success("Profile updated", "Your photo has been updated.");
    },
    onError: (error) => notify.error("Update failed", errorMessage(error)),
  });
}

/** DELETE /api/user/avatar: back to the initials. */
export function useRemoveAvatar() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(userApi.removeAvatar, {}),
    onSuccess: (user) => {
      setCurrentUser(client, user);
      notify.success("Profile updated", "Your photo has been removed.");
    },
    onError: (error) => notify.error("Update failed", errorMessage(error)),
  });
}
