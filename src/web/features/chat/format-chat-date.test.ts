import { describe, expect, it } from "vitest";
import { formatChatDate } from "./format-chat-date.js";

const now = new Date(2024, 10, 15, 10, 30); // Nov 15 2024, 10:30 local

describe("formatChatDate", () => {
  it("says Today with the time, zero-padded", () => {
    expect(formatChatDate(new Date(2024, 10, 15, 14, 5), now)).toBe("Today 14:05");
    expect(formatChatDate(new Date(2024, 10, 15, 0, 0), now)).toBe("Today 00:00");
  });

  it("says Yesterday with the time", () => {
    expect(formatChatDate(new Date(2024, 10, 14, 9, 12), now)).toBe("Yesterday 09:12");
    expect(formatChatDate(new Date(2024, 10, 14, 23, 59), now)).toBe("Yesterday 23:59");
  });

  it("gives a short date otherwise, with the year only when it differs", () => {
    expect(formatChatDate(new Date(2024, 10, 3, 8, 0), now)).toBe("Nov 3");
    expect(formatChatDate(new Date(2024, 10, 13, 23, 59), now)).toBe("Nov 13");
    expect(formatChatDate(new Date(2023, 11, 31, 12, 0), now)).toBe("Dec 31, 2023");
  });

  it("crosses month and year boundaries for Yesterday", () => {
    expect(formatChatDate(new Date(2024, 11, 31, 22, 1), new Date(2025, 0, 1, 8, 0))).toBe("Yesterday 22:01");
    expect(formatChatDate(new Date(2024, 1, 29, 7, 7), new Date(2024, 2, 1, 8, 0))).toBe("Yesterday 07:07");
  });

  it("accepts ISO strings and ignores invalid dates", () => {
    expect(formatChatDate(new Date(2024, 10, 15, 14, 5).toISOString(), now)).toBe("Today 14:05");
    expect(formatChatDate("not a date", now)).toBe("");
  });
});
