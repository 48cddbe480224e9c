import { publicContentApi } from "../../../shared/contracts/public-content.js";
import { endpointQuery } from "../../lib/endpoint-query.js";

/** GET /api/getting-started-videos: active videos, in order, with safe https player URLs. */
export const gettingStartedVideosQuery = endpointQuery(publicContentApi.videos, {});
