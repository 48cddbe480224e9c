import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminUsersApi } from "../../../../shared/contracts/admin-users.js";
import {
  planAllowancesApi as api,
  type PlanAllowances,
  type PlanStorageLimits,
  planStorageLimitsApi as storageApi,
} from "../../../../shared/contracts/usage.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/plan-allowances: each plan's monthly tokens and messages per day (null: unlimited). */
export const planAllowancesQuery = endpointQuery(api.get, {});

/** PUT /api/admin/plan-allowances: the answer replaces the cached read; the users list shows the new limits. */
export function useSavePlanAllowances() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanAllowances) => call(api.update, { body }),
    onSuccess: (saved) => {
      client.setQueryData(planAllowancesQuery.queryKey, saved);
      void client.invalidateQueries({ queryKey: endpointKey(adminUsersApi.list) });
    },
  });
}

/** GET /api/admin/plan-storage-limits: each plan's library storage, files and largest file (null: unlimited). */
export const planStorageLimitsQuery = endpointQuery(storageApi.get, {});

/** PUT /api/admin/plan-storage-limits: the answer replaces the cached read. */
export function useSavePlanStorageLimits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanStorageLimits) => call(storageApi.update, { body }),
    onSuccess: (saved) => client.setQueryData(planStorageLimitsQuery.queryKey, saved),
  });
}
