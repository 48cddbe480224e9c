import { createContext, useContext } from "react";
import { THEME_STORAGE_KEY, THEMES, type Theme } from "../../shared/constants.js";

export type ResolvedTheme = "light" | "dark";

export type ThemeState = {
  theme: Theme;
  resolvedTheme: ResolvedTheme;
  setTheme: (theme: Theme) => void;
};

export const ThemeContext = createContext<ThemeState | null>(null);

export function useTheme(): ThemeState {
  const value = useContext(ThemeContext);
  if (!value) throw new Error("useTheme must be used inside ThemeProvider");
  return value;
}

/** The stored choice (default light, as theme-init.js decides before the first paint). */
export function readStoredTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    if (stored && (THEMES as readonly string[]).includes(stored)) return stored as Theme;
  } catch {
    // Storage can be unavailable (private mode); the default applies.
  }
  return "light";
}

export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not fatal: the choice lasts for this visit only.
  }
}
