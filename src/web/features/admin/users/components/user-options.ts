import { PLAN_TYPES, ROLES } from "../../../../../shared/constants.js";
import { USER_STATUSES } from "../../../../../shared/contracts/admin-users.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { ROLE_LABELS, STATUS_LABELS } from "./user-format.js";

export const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));
export const PLAN_OPTIONS = PLAN_TYPES.map((value) => ({ value, label: PLAN_LABELS[value] }));
export const STATUS_OPTIONS = USER_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
