import { z } from "zod";
import { PLAN_TYPES } from "../constants.js";
import { publicUserSchema } from "./auth.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";

/** PATCH /api/admin/users/{id}: the plan (the admin users page adds the other fields). */
export const adminUserPatchSchema = z.object({
  planType: z.enum(PLAN_TYPES, { error: "Plan must be free or earlyAccess" }).optional(),
});
export type AdminUserPatch = z.output<typeof adminUserPatchSchema>;

export const adminUsersApi = {
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/users/:id",
    params: idParamsSchema,
    body: adminUserPatchSchema,
    response: publicUserSchema,
  }),
};
