import { describe, expect, it } from "vitest";
import { formatFullDate, formatRelativeTime } from "./format-relative-time.js";

describe("formatRelativeTime", () => {
  const now = new Date(2025, 2, 12, 15, 0, 0); // Mar 12 2025, 3 PM local

  it("counts recent minutes and hours", () => {
    expect(formatRelativeTime(new Date(2025, 2, 12, 14, 59, 30), now)).toBe("just now");
    expect(formatRelativeTime(new Date(2025, 2, 12, 15, 0, 20), now)).toBe("just now");
    expect(formatRelativeTime(new Date(2025, 2, 12, 14, 55), now)).toBe("5 min ago");
    expect(formatRelativeTime(new Date(2025, 2, 12, 12, 0), now)).toBe("3 h ago");
  });

  it("names yesterday, then a short date, with the year when it differs", () => {
    expect(formatRelativeTime(new Date(2025, 2, 11, 8, 5), now)).toBe("Yesterday 8:05 AM");
    expect(formatRelativeTime(new Date(2025, 2, 3, 9, 0), now)).toBe("Mar 3");
    expect(formatRelativeTime(new Date(2024, 10, 3, 9, 0), now)).toBe("Nov 3, 2024");
  });

  it("says nothing for a bad date", () => {
    expect(formatRelativeTime("not a date", now)).toBe("");
    expect(formatFullDate("not a date")).toBe("");
  });

  it("writes the full date for the tooltip", () => {
    expect(formatFullDate(new Date(2025, 2, 3, 14, 5))).toMatch(/^Monday, March 3, 2025 at 2:05\sPM$/);
  });
});
