import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useState } from "react";
import type { Theme } from "../../shared/constants.js";
import { type ResolvedTheme, readStoredTheme, storeTheme, ThemeContext } from "../lib/theme.js";

const darkQuery = "(prefers-color-scheme: dark)";

function systemTheme(): ResolvedTheme {
  return window.matchMedia(darkQuery).matches ? "dark" : "light";
}

function applyTheme(resolved: ResolvedTheme): void {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  root.classList.add(resolved);
  root.style.colorScheme = resolved;
}

/**
 * Light, dark or system (following the OS live); stored under `ui-theme`, default light.
 *
 * theme-init.js puts the theme on <html> before the first paint; this provider reads the stored choice
 * after its first render (before the browser paints), so that render is the same at build time
 * (prerendered pages, no window) and in the browser, and a hydrating page matches its HTML.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>("light");
  const [system, setSystem] = useState<ResolvedTheme>("light");
  const [read, setRead] = useState(false);

  useLayoutEffect(() => {
    setThemeState(readStoredTheme());
    setSystem(systemTheme());
    setRead(true);
  }, []);

  useEffect(() => {
    const media = window.matchMedia(darkQuery);
    const onChange = () => setSystem(media.matches ? "dark" : "light");
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);

  const resolvedTheme: ResolvedTheme = theme === "system" ? system : theme;

  useEffect(() => {
    // Not before the stored choice is read: theme-init.js has already applied it.
    if (read) applyTheme(resolvedTheme);
  }, [resolvedTheme, read]);

  const setTheme = useCallback((next: Theme) => {
    storeTheme(next);
    setThemeState(next);
  }, []);

  const value = useMemo(() => ({ theme, resolvedTheme, setTheme }), [theme, resolvedTheme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}
