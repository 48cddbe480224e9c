import { describe, expect, it } from "vitest";
import { containsPattern, escapeLike } from "./like-pattern.js";

describe("LIKE patterns of typed text", () => {
  it("match %, _ and \\ as themselves", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
    expect(escapeLike("plain words")).toBe("plain words");
  });

  it("find the term anywhere, lower-cased", () => {
    expect(containsPattern("50%_Off\\")).toBe("%50\\%\\_off\\\\%");
    expect(containsPattern("Ada")).toBe("%ada%");
  });
});
