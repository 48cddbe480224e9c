import { Monitor, Moon, Sun } from "lucide-react";
import { THEMES, type Theme } from "../../../../shared/constants.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";
import { useTheme } from "../../../lib/theme.js";

const labels: Record<Theme, { label: string; icon: typeof Sun }> = {
  light: { label: "Light", icon: Sun },
  dark: { label: "Dark", icon: Moon },
  system: { label: "System", icon: Monitor },
};

/**
 * Light, Dark or System. Not modal: a modal menu hides the page from assistive technology (aria-hidden on the app's root)
 * while its links stay in the tab order (axe's aria-hidden-focus, issue 32); the menu still closes on Escape or outside.
 */
export function ThemeToggle() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  const Icon = resolvedTheme === "dark" ? Moon : Sun;
  return (
    <LazyDropdownMenu
      modal={false}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Toggle theme">
          <Icon className="size-5" aria-hidden="true" />
        </Button>
      }
    >
      {(ui) => (
        <ui.DropdownMenuContent align="end">
          <ui.DropdownMenuRadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
            {THEMES.map((option) => {
              const { label, icon: ItemIcon } = labels[option];
              return (
                <ui.DropdownMenuRadioItem key={option} value={option}>
                  <ItemIcon aria-hidden="true" />
                  {label}
                </ui.DropdownMenuRadioItem>
              );
            })}
          </ui.DropdownMenuRadioGroup>
        </ui.DropdownMenuContent>
      )}
    </LazyDropdownMenu>
  );
}
