import { describe, expect, it } from "vitest";
import { getInitials } from "./initials.js";

describe("getInitials (docs/product.md, Accounts)", () => {
  it.each([
    [{ name: "Ada Lovelace", username: "ada" }, "AL"],
    [{ name: "Grace Brewster Murray Hopper", username: "grace" }, "GB"],
    [{ name: "plato", username: "p" }, "P"],
    [{ name: "  ", username: "margaret" }, "MA"],
    [{ name: null, username: "x" }, "X"],
    [null, "U"],
  ])("%o -> %s", (user, expected) => {
    expect(getInitials(user)).toBe(expected);
  });
});
