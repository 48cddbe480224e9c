import { describe, expect, it } from "vitest";
import { newCourseFromMaterialPath } from "../../lib/app-paths.js";
import { sourcesFromSearch } from "./material-api.js";

describe('the link into New Course "From my material"', () => {
  it("reads back the chat or the folder it was made with", () => {
    const fromChat = new URL(newCourseFromMaterialPath({ chatId: 12 }), "http://x").search;
    const fromFolder = new URL(newCourseFromMaterialPath({ folderId: 3 }), "http://x").search;
    expect(sourcesFromSearch(fromChat)).toEqual({ open: true, sources: { chatId: 12 } });
    expect(sourcesFromSearch(fromFolder)).toEqual({ open: true, sources: { folderId: 3 } });
    expect(sourcesFromSearch(new URL(newCourseFromMaterialPath(), "http://x").search)).toEqual({ open: true, sources: {} });
  });

  it("opens nothing without new=material, and ignores ids that are not positive whole numbers", () => {
    expect(sourcesFromSearch("?chatId=12")).toEqual({ open: false, sources: {} });
    expect(sourcesFromSearch("?new=material&chatId=-4&folderId=1.5")).toEqual({ open: true, sources: {} });
    expect(sourcesFromSearch("?new=material&chatId=abc")).toEqual({ open: true, sources: {} });
  });
});
