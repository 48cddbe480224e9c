import { describe, expect, it } from "vitest";
import { askedOnce, stillOwned, sweepEach } from "./liveness.js";

const alive =
  (...ids: string[]) =>
  async (id: string) =>
    ids.includes(id);

describe("the liveness rule", () => {
  it("keeps this instance's work while it runs here or was written just now", async () => {
    expect(await stillOwned({ owner: "me", runsHere: true, fresh: false }, "me", undefined)).toBe(true);
    expect(await stillOwned({ owner: "me", runsHere: false, fresh: true }, "me", undefined)).toBe(true);
    expect(await stillOwned({ owner: "me", runsHere: false, fresh: false }, "me", alive("me"))).toBe(false);
  });

  it("keeps another instance's work while that instance is alive; without a heartbeat to ask, it is gone", async () => {
    expect(await stillOwned({ owner: "other", runsHere: false, fresh: true }, "me", alive("other"))).toBe(true);
    expect(await stillOwned({ owner: "other", runsHere: false, fresh: true }, "me", alive())).toBe(false);
    expect(await stillOwned({ owner: "other", runsHere: false, fresh: true }, "me", undefined)).toBe(false);
    expect(await stillOwned({ owner: null, runsHere: false, fresh: true }, "me", alive("other"))).toBe(false);
  });

  it("asks each owner once per sweep, and again after a failed question", async () => {
    const asked: string[] = [];
    let fail = true;
    const once = askedOnce(async (id) => {
      asked.push(id);
      if (fail) throw new Error("redis away");
      return true;
    });
    await expect(once?.("a")).rejects.toThrow("redis away");
    fail = false;
    expect(await once?.("a")).toBe(true);
    expect(await once?.("a")).toBe(true);
    expect(asked).toEqual(["a", "a"]);
    expect(askedOnce(undefined)).toBeUndefined();
  });

  it("closes each row on its own: one that fails is reported and the rest go on", async () => {
    const closed: number[] = [];
    const failed: number[] = [];
    await sweepEach(
      [1, 2, 3],
      async (row) => {
        if (row === 2) throw new Error("locked");
        closed.push(row);
      },
      (row) => failed.push(row),
    );
    expect({ closed, failed }).toEqual({ closed: [1, 3], failed: [2] });
  });
});
