import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { paths } from "../../../lib/paths.js";
import { chatUserSettingsQuery } from "../api.js";

/** Chat history is off for everyone (Platform Settings): no chat is kept. */
export const HISTORY_OFF_BY_PLATFORM = "Chat history is turned off on this platform, so new chats are not saved or listed here.";
/** The user's own Save Chat History is off. */
export const HISTORY_OFF_BY_USER = "Chat history is off, so new chats are not saved or listed here.";

/**
 * The history with no chat in it: the product's "No chats yet" while chats are kept; when history is off (the user's
 * Save Chat History, or the platform's switch) it says so instead, since a chat sent now would never appear here.
 */
export function EmptyHistory() {
  const settings = useQuery(chatUserSettingsQuery);
  const platform = usePlatformSettings();
  const className = "px-3 py-4 text-sm text-muted-foreground";
  if (!platform.isPending && !platform.settings.enableHistory) return <p className={className}>{HISTORY_OFF_BY_PLATFORM}</p>;
  if (settings.data?.saveHistory === false) {
    return (
      <p className={className}>
        {HISTORY_OFF_BY_USER}{" "}
        <Link href={paths.settings} className="font-medium text-foreground underline underline-offset-2">
          Turn on Save Chat History in Settings, AI Preferences
        </Link>
        .
      </p>
    );
  }
  return <p className={className}>No chats yet. Your first message starts one.</p>;
}
