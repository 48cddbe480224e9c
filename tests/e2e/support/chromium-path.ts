import { existsSync } from "node:fs";

export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => Boolean(p && existsSync(p))) ?? null;
}
