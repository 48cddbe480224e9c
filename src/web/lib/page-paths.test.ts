import { describe, expect, it } from "vitest";
import { EMAIL_PREVIEW_ROUTE } from "../../shared/email-preview-path.js";
import { isPagePath } from "../../shared/page-paths.js";
import { chatPath, courseEditPath, coursePath, lessonPath, paths } from "./paths.js";

describe("isPagePath (the server's 404 for unknown addresses, issue 29)", () => {
  it("knows every path of the route table", () => {
    const concrete = (path: string) =>
      path
        .split("?")[0]
        ?.replace(/:\w+\??/g, "7")
        .replace("*", "x") ?? path;
    for (const path of [...Object.values(paths), EMAIL_PREVIEW_ROUTE]) expect(isPagePath(concrete(path)), path).toBe(true);
    for (const path of [chatPath(1), coursePath(2), courseEditPath(2), lessonPath(2, 3)]) expect(isPagePath(path), path).toBe(true);
  });

  it("refuses anything else, and ignores a trailing slash", () => {
    for (const path of ["/nope", "/chat/1/extra", "/dashboard/x", "/settingsx", "/login/now", "/checkout"]) {
      expect(isPagePath(path), path).toBe(false);
    }
    expect(isPagePath("/settings/")).toBe(true);
  });
});
