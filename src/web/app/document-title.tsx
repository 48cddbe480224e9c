import { useEffect } from "react";
import { usePlatformSettings } from "../domain/platform-settings.js";

/** The browser tab shows the product name an admin set (Platform Settings); index.html's title until it is read. */
export function DocumentTitle() {
  const { settings, isPending } = usePlatformSettings();
  const name = settings.platformName;
  useEffect(() => {
    if (!isPending) document.title = name;
  }, [name, isPending]);
  return null;
}
