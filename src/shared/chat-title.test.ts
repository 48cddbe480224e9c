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

  it("reads the line as it shows rendered: no Markdown marks, a link's text, no code fence", () => {
    expect(titleFromMessage("Second question about **cooking**")).toBe("Second question about cooking");
    expect(titleFromMessage("# Plan a *short* trip")).toBe("Plan a short trip");
    expect(titleFromMessage("> quoted `code` and ~~old~~ __new__")).toBe("quoted code and old new");
    expect(titleFromMessage("- see [the docs](https://example.com/x) and ![a cat](c.png)")).toBe("see the docs and a cat");
    expect(titleFromMessage("1. first step")).toBe("first step");
    expect(titleFromMessage("```python\nprint('hi')\n```")).toBe("print('hi')");
    // What is not Markdown stays as written.
    expect(titleFromMessage("2*3 = 6 and snake_case_name")).toBe("2*3 = 6 and snake_case_name");
    expect(titleFromMessage("#hashtag and C# code")).toBe("#hashtag and C# code");
    expect(titleFromMessage("```\n```")).toBe(DEFAULT_CHAT_TITLE);
  });

  it("renames only a chat still called New Chat", () => {
    expect(retitle(DEFAULT_CHAT_TITLE, "Hello there")).toEqual({ title: "Hello there" });
    expect(retitle("My own name", "Hello there")).toEqual({});
    expect(shownTitle("")).toBe(DEFAULT_CHAT_TITLE);
    expect(shownTitle("Kept")).toBe("Kept");
  });
});
