import { describe, expect, it } from "vitest";
import { askCollectionPath, collectionsAsked } from "./ask-collection.js";

describe("the address of a new chat that asks a collection", () => {
  it("is /chat?collection=<id>, and reads back as that id", () => {
    expect(askCollectionPath(12)).toBe("/chat?collection=12");
    expect(collectionsAsked("?collection=12")).toEqual([12]);
    expect(collectionsAsked("collection=12&collection=3&collection=12")).toEqual([12, 3]);
  });

  it("keeps only whole positive ids a collection can have", () => {
    expect(collectionsAsked("")).toEqual([]);
    for (const bad of ["abc", "0", "-4", "1.5", "1e3", " 7", "99999999999", "2147483648", "", "12abc"]) {
      expect(collectionsAsked(`?collection=${encodeURIComponent(bad)}`), bad).toEqual([]);
    }
    expect(collectionsAsked("?collection=2147483647")).toEqual([2_147_483_647]);
    expect(collectionsAsked(`?${Array.from({ length: 30 }, (_, i) => `collection=${i + 1}`).join("&")}`)).toHaveLength(20);
  });
});
