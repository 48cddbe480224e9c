import { queryOptions } from "@tanstack/react-query";
import type { GettingStartedVideo } from "../../../shared/contracts/public-content.js";

/** GET /api/getting-started-videos: active videos, in order, with safe https player URLs. */
export const gettingStartedVideosQuery = queryOptions<GettingStartedVideo[]>({ queryKey: ["/api/getting-started-videos"] });
