import { useMutation, useQueryClient } from "@tanstack/react-query";
import { platformSettingsApi as api, type UpdatePlatformSettingsBody } from "../../../../shared/contracts/platform-settings.js";
import { storePublicPlatformSettings } from "../../../domain/public-queries.js";
import { call } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/platform-settings: every setting (of the SMTP password only whether one is stored). */
export const adminPlatformSettingsQuery = endpointQuery(api.get, {});

/** PATCH /api/admin/platform-settings; the saved settings replace the cached ones, here and app-wide (name, switches). */
export function useUpdatePlatformSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePlatformSettingsBody) => call(api.update, { body }),
    onSuccess: (saved) => {
      client.setQueryData(adminPlatformSettingsQuery.queryKey, saved);
      storePublicPlatformSettings(client, {
        platformName: saved.platformName,
        allowRegistration: saved.allowRegistration,
        enableHistory: saved.enableHistory,
        enableModelSelection: saved.enableModelSelection,
        supportEmail: saved.supportEmail,
      });
    },
  });
}
