import { useEffect, useState } from "react";
import type { catalogApi } from "../../../shared/contracts/catalog.js";
import { catalogAddresses } from "../../../shared/contracts/catalog-address.js";
import { type EndpointInput, type EndpointOutput, type EndpointShape, typedAddress } from "../../../shared/contracts/endpoint.js";
import { useInitialReads } from "../../domain/initial-reads.js";
import { call, endpointUrl, isApiError } from "../../lib/api-client.js";

/** The catalogue's reads without the contract's schemas (the visitors' small app loads no zod). */
export const catalogReads = {
  list: typedAddress<typeof catalogApi.list>(catalogAddresses.list),
  get: typedAddress<typeof catalogApi.get>(catalogAddresses.get),
  preview: typedAddress<typeof catalogApi.preview>(catalogAddresses.preview),
};

export type ReadState<T> = { kind: "loading" } | { kind: "found"; value: T } | { kind: "missing" } | { kind: "failed" };

function seeded<T>(reads: Readonly<Record<string, unknown>>, url: string): ReadState<T> | null {
  if (!(url in reads)) return null;
  const value = reads[url];
  return value === null ? { kind: "missing" } : { kind: "found", value: value as T };
}

/**
 * One read of a catalogue page: the answer the server drew the page with when it has it (so hydration asks nothing),
 * else read now, and again whenever the address changes (a new search). A 404 (or 400) is `missing`.
 */
export function useCatalogRead<E extends EndpointShape>(endpoint: E, input: EndpointInput<E>): ReadState<EndpointOutput<E>> {
  const reads = useInitialReads();
  const url = endpointUrl(endpoint, input);
  const [entry, setEntry] = useState(() => ({ url, state: seeded<EndpointOutput<E>>(reads, url) ?? { kind: "loading" } }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL names the read (endpoint and input make it)
  useEffect(() => {
    const known = seeded<EndpointOutput<E>>(reads, url);
    if (known) {
      setEntry((old) => (old.url === url && old.state.kind === known.kind ? old : { url, state: known }));
      return;
    }
    let live = true;
    setEntry({ url, state: { kind: "loading" } });
    call(endpoint, input)
      .then((value) => live && setEntry({ url, state: { kind: "found", value } }))
      .catch((error: unknown) => {
        if (!live) return;
        const missing = isApiError(error) && (error.status === 404 || error.status === 400);
        setEntry({ url, state: missing ? { kind: "missing" } : { kind: "failed" } });
      });
    return () => {
      live = false;
    };
  }, [url, reads]);
  return entry.url === url ? entry.state : { kind: "loading" };
}
