import { type ComponentType, createElement, type ReactNode, useEffect, useState } from "react";

/**
 * A lazily loaded component whose code can be fetched before it is drawn (`preload()`, e.g. at boot, in
 * parallel with the session read). Once fetched it renders at once. Drawn before its code arrived, it draws
 * `fallback(props)` and then the component when the code is there, as an ordinary update: it never suspends.
 * A Suspense fallback would hold the content back behind React 19's reveal throttle (up to 300 ms after the
 * fallback showed, FALLBACK_THROTTLE_MS), which put a warm open of the chat at ~470 ms instead of ~260 (issue 29,
 * decision 041). A failed load is thrown to the nearest error boundary, as `lazy()` does.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>, fallback: (props: P) => ReactNode) {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // a later attempt may succeed (the network came back)
        throw error;
      },
    );
    return loading;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, as lazy() is.
  function Preloadable(props: P) {
    const [state, setState] = useState<{ component?: ComponentType<P>; error?: unknown }>(() => ({ component: loaded }));
    const waiting = state.component === undefined && state.error === undefined;
    useEffect(() => {
      if (!waiting) return;
      let mounted = true;
      preload().then(
        (component) => mounted && setState({ component }),
        (error: unknown) => mounted && setState({ error }),
      );
      return () => {
        mounted = false;
      };
    }, [waiting]);
    if (state.error !== undefined) throw state.error;
    return state.component ? createElement(state.component, props) : fallback(props);
  }
  return Object.assign(Preloadable, { preload, isLoaded: () => loaded !== undefined });
}
