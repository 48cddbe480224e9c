import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect.js";

describe("safeRedirectPath", () => {
  it.each(["/settings", "/chat/12?x=1#m", "/courses/3/edit"])("keeps the same-site path %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/\tevil",
    "",
    null,
    undefined,
    "settings",
  ])("refuses %s", (target) => {
    expect(safeRedirectPath(target as string, "/home")).toBe("/home");
  });

  it("keeps encoded characters encoded (never decoded into a header or a host)", () => {
    expect(safeRedirectPath("/%0d%0aSet-Cookie:x")).toBe("/%0d%0aSet-Cookie:x");
  });
});
