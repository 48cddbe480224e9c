// Runs before the first paint (loaded without defer) so the page never flashes the wrong theme.
// A separate file, not inline, so the Content-Security-Policy can forbid inline scripts.
(() => {
  let theme = "light";
  try {
    const stored = localStorage.getItem("ui-theme");
    if (stored === "light" || stored === "dark" || stored === "system") theme = stored;
  } catch {}
  const dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.add(dark ? "dark" : "light");
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
})();
