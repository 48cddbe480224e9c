import { describe, expect, it } from "vitest";
import { courseIdOfSlug, courseSlug, kebabTitle } from "./catalog-slug.js";

describe("a catalogue course's slug", () => {
  it("is the title in ASCII kebab case, then the id", () => {
    expect(courseSlug("Intro to C++ & Rust: Part 2!", 42)).toBe("intro-to-c-rust-part-2-42");
    expect(courseSlug("Crème brûlée, Ångström", 7)).toBe("creme-brulee-angstrom-7");
    expect(courseSlug("日本語のコース", 9)).toBe("course-9");
    expect(kebabTitle("a".repeat(100))).toHaveLength(60);
    expect(kebabTitle(`${"word ".repeat(11)}end`)).not.toMatch(/-$/);
  });

  it("names its course by the id at its end, whatever the title part", () => {
    expect(courseIdOfSlug("intro-to-c-rust-part-2-42")).toBe(42);
    expect(courseIdOfSlug("old-title-42")).toBe(42);
    expect(courseIdOfSlug("42")).toBe(42);
    for (const junk of ["", "no-id", "title-0", "title-042", "Title-42", "title-99999999999", "title-2147483648", "../42"])
      expect(courseIdOfSlug(junk), junk).toBeNull();
  });
});
