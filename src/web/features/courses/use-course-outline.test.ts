import { describe, expect, it } from "vitest";
import type { CourseOutline } from "../../../shared/contracts/courses.js";
import { ApiError } from "../../lib/api-client.js";
import { failureText } from "../../lib/failure-text.js";
import { loadFailure } from "../../lib/load-failure.js";
import { parseId } from "../../lib/route-id.js";
import { readingOrder } from "./use-course-outline.js";

const lesson = (id: number, order: number) => ({
  id,
  moduleId: 0,
  courseId: 1,
  title: `L${id}`,
  type: "reading" as const,
  order,
  aiGenerated: false,
  completed: false,
  createdAt: "",
  updatedAt: "",
});

describe("course screens' helpers", () => {
  it("reads a route id: positive whole numbers only", () => {
    expect(parseId("12")).toBe(12);
    for (const bad of [undefined, "", "0", "-1", "1.5", "abc", "99999999999"]) expect(parseId(bad)).toBeNull();
  });

  it("puts the lessons in reading order across modules, by order", () => {
    const outline = {
      modules: [
        { id: 2, courseId: 1, title: "B", description: "", order: 2, lessons: [lesson(5, 2), lesson(4, 1)] },
        { id: 1, courseId: 1, title: "A", description: "", order: 1, lessons: [lesson(3, 1)] },
      ],
    } as unknown as CourseOutline;
    expect(readingOrder(outline).map((entry) => entry.lesson.id)).toEqual([3, 4, 5]);
  });

  it("tells 404, 403 and other failures apart, and prefers the server's message to the fallback", () => {
    expect(loadFailure(new ApiError(404, "Course not found", { message: "Course not found" }))).toBe("missing");
    expect(loadFailure(new ApiError(403, "x", {}))).toBe("forbidden");
    expect(loadFailure(new ApiError(500, "x", {}))).toBe("failed");
    expect(loadFailure(null)).toBeNull();
    expect(failureText(new ApiError(400, "Title is required", { message: "Title is required" }), "Failed")).toBe("Title is required");
    expect(failureText(new ApiError(502, "502: ", {}), "Failed to add module")).toBe("Failed to add module");
  });
});
