const pad = (n: number) => String(n).padStart(2, "0");
const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const shortDateWithYear = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * The history sidebar (docs/product.md, Chat): "Today 14:05", "Yesterday 09:12", otherwise a
 * short date ("Nov 3", with the year when it is not this year). Local time.
 */
export function formatChatDate(date: Date | string, now: Date = new Date()): string {
  const when = typeof date === "string" ? new Date(date) : date;
  if (Number.isNaN(when.getTime())) return "";
  const time = `${pad(when.getHours())}:${pad(when.getMinutes())}`;
  const day = startOfDay(when);
  const today = startOfDay(now);
  if (day === today) return `Today ${time}`;
  const yesterday = startOfDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (day === yesterday) return `Yesterday ${time}`;
  return (when.getFullYear() === now.getFullYear() ? shortDate : shortDateWithYear).format(when);
}
