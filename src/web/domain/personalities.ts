import { personalitiesApi } from "../../shared/contracts/personalities.js";
import { endpointQuery } from "../lib/endpoint-query.js";

/** GET /api/personalities: the user's own training personalities (Early Access; 403 on the free plan). */
export const personalitiesQuery = endpointQuery(personalitiesApi.list, {});

export const PERSONALITIES_LOCKED = "Training personalities are part of the Early Access plan.";
