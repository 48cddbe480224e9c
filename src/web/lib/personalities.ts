import { queryOptions } from "@tanstack/react-query";
import type { Personality } from "../../shared/contracts/personalities.js";

/** GET /api/personalities: the user's own training personalities (Early Access; 403 on the free plan). */
export const personalitiesQuery = queryOptions<Personality[]>({ queryKey: ["/api/personalities"] });

export const PERSONALITIES_LOCKED = "Training personalities are part of the Early Access plan.";
