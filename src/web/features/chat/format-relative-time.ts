const fullDate = new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "short" });
const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const shortDateWithYear = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
const clock = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });

/**
 * A message's time, relative while it is recent: "just now", "5 min ago", "3 h ago", "Yesterday 9:12 AM",
 * then a short date ("Nov 3", with the year when it is not this year). Local time; "" for a bad date.
 */
export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const when = typeof date === "string" ? new Date(date) : date;
  if (Number.isNaN(when.getTime())) return "";
  const seconds = Math.round((now.getTime() - when.getTime()) / 1000);
  if (seconds < 60) return "just now"; // a clock a little ahead of the server's reads as now too
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  const sameDay = when.toDateString() === now.toDateString();
  if (sameDay || hours < 6) return `${hours} h ago`;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (when.toDateString() === yesterday.toDateString()) return `Yesterday ${clock.format(when)}`;
  return (when.getFullYear() === now.getFullYear() ? shortDate : shortDateWithYear).format(when);
}

/** The full date and time, for the tooltip: "Monday, March 3, 2025 at 2:05 PM". */
export function formatFullDate(date: Date | string): string {
  const when = typeof date === "string" ? new Date(date) : date;
  return Number.isNaN(when.getTime()) ? "" : fullDate.format(when);
}
