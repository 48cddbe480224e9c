import { describe, expect, it } from "vitest";
import { toEmbedUrl } from "./embed-url.js";

describe("toEmbedUrl", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://www.loom.com/share/abc123", "https://www.loom.com/embed/abc123"],
    ["https://player.vimeo.com/video/1", "https://player.vimeo.com/video/1"],
  ])("turns %s into %s", (input, expected) => {
    expect(toEmbedUrl(input)).toBe(expected);
  });

  it.each([
    "http://player.vimeo.com/video/1",
    "javascript:alert(1)",
    "https://evil.example/embed",
    "https://user:pw@www.loom.com/embed/x",
    "not a url",
  ])("refuses %s", (input) => {
    expect(toEmbedUrl(input)).toBeNull();
  });

  it("accepts a host an operator allowed", () => {
    expect(toEmbedUrl("https://videos.example.org/e/1", ["videos.example.org"])).toBe("https://videos.example.org/e/1");
  });
});
