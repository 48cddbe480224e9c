import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_TITLE, retitle, shownTitle, titleFromMessage } from "./chat-title.js";

describe("chat titles", () => {
  it("takes the first line of the first message, cut at a word near 60 characters", () => {
    expect(titleFromMessage("  Plan a trip\nto Lisbon")).toBe("Plan a trip");
    expect(titleFromMessage("   \n")).toBe(DEFAULT_CHAT_TITLE);
    const long = "Explain the difference between supervised and unsupervised learning, with examples";
    const title = titleFromMessage(long);
    expect(title.endsWith("...")).toBe(true);
    expect(title.length).toBeLessThanOrEqual(63);
    expect(long.startsWith(title.slice(0, -3))).toBe(true);
  });

  it("renames only a chat still called New Chat", () => {
    expect(retitle(DEFAULT_CHAT_TITLE, "Hello there")).toEqual({ title: "Hello there" });
    expect(retitle("My own name", "Hello there")).toEqual({});
    expect(shownTitle("")).toBe(DEFAULT_CHAT_TITLE);
    expect(shownTitle("Kept")).toBe("Kept");
  });
});
