import { type ComponentType, createElement, lazy, useState } from "react";

/**
 * A lazily loaded component whose code can be fetched before it is drawn (`preload()`, e.g. at boot, in
 * parallel with the session read). Once fetched it renders at once: no Suspense fallback, so React does not
 * hold the page back behind its fallback throttle. A component drawn before its code arrived suspends like
 * `lazy()`, and keeps that form while mounted (switching would remount it).
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>) {
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
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, as lazy() is.
  function Preloadable(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(Component, props);
  }
  return Object.assign(Preloadable, { preload });
}
