import { createContext, useContext } from "react";

/**
 * The public API's answers a page rendered at request time was drawn with (the catalogue, issue 33: the boot data's
 * `reads`, by the read's URL; null where the read answered 404). The visitors' small app provides them
 * (app/public-app.tsx), so the first render equals the server's HTML and asks nothing again; the signed-in app has none.
 */
export const InitialReadsContext = createContext<Readonly<Record<string, unknown>>>({});

export function useInitialReads(): Readonly<Record<string, unknown>> {
  return useContext(InitialReadsContext);
}
