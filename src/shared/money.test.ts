import { describe, expect, it } from "vitest";
import { fromMinorUnits, maskStripeId, toMinorUnits } from "./money.js";

describe("toMinorUnits", () => {
  it("turns major units into the currency's minor units exactly", () => {
    expect(toMinorUnits("297", "usd")).toBe(29700);
    expect(toMinorUnits("19.5", "EUR")).toBe(1950);
    expect(toMinorUnits("0.29", "usd")).toBe(29);
    expect(toMinorUnits("5000", "JPY")).toBe(5000);
    expect(toMinorUnits("5000.00", "jpy")).toBe(5000);
    expect(toMinorUnits("12.5", "KWD")).toBe(12500);
  });

  it("refuses what is not a price", () => {
    expect(toMinorUnits("", "usd")).toBeNull();
    expect(toMinorUnits("-1", "usd")).toBeNull();
    expect(toMinorUnits("1.234", "usd")).toBeNull();
    expect(toMinorUnits("1e3", "usd")).toBeNull();
    expect(toMinorUnits("12.5", "JPY")).toBeNull();
  });
});

describe("fromMinorUnits", () => {
  it("writes minor units back in major units", () => {
    expect(fromMinorUnits(29700, "usd")).toBe("297.00");
    expect(fromMinorUnits(5, "usd")).toBe("0.05");
    expect(fromMinorUnits(5000, "jpy")).toBe("5000");
    expect(fromMinorUnits(12500, "kwd")).toBe("12.500");
  });
});

describe("maskStripeId", () => {
  it("keeps the first 7 and the last 4 characters", () => {
    expect(maskStripeId("price_1PxYzAbCdEfGhIjK")).toBe("price_1…hIjK");
    expect(maskStripeId("prod_short")).toBe("prod_short");
  });
});
