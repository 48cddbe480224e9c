import { queryOptions } from "@tanstack/react-query";
import type { EndpointInput, EndpointKeyInput, EndpointShape } from "../../shared/contracts/endpoint.js";
import { call, endpointKey } from "./api-client.js";

/** A read as React Query options: the key from `endpointKey`, the data from `call`. */
export function endpointQuery<E extends EndpointShape>(endpoint: E, input: EndpointInput<E>) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input as EndpointKeyInput<E>),
    queryFn: ({ signal }) => call(endpoint, input, { signal }),
  });
}
