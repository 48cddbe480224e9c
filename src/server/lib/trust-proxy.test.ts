import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { parseTrustProxy, type TrustHops } from "./trust-proxy.js";

const value = (raw: string | undefined) => {
  const parsed = parseTrustProxy(raw);
  if (!("value" in parsed)) throw new Error(parsed.error);
  return parsed.value;
};

describe("TRUST_PROXY", () => {
  it("is off when unset, empty or false", () => {
    expect(value(undefined)).toBe(false);
    expect(value("")).toBe(false);
    expect(value("false")).toBe(false);
    expect(value("0")).toBe(false);
  });

  it("true is one hop: the socket's peer is trusted, the address it forwards is the client", () => {
    const one = value("true") as TrustHops;
    expect(one.hops).toBe(1);
    expect(one("10.0.0.1", 0)).toBe(true);
    expect(one("1.2.3.4", 1)).toBe(false);
    const two = value("2") as TrustHops;
    expect(two.hops).toBe(2);
    expect(two("10.0.0.2", 1)).toBe(true);
    expect(two("1.2.3.4", 2)).toBe(false);
  });

  it("takes a comma list of proxy addresses and CIDR ranges", () => {
    expect(value("10.0.0.1, 10.1.0.0/16,::1,fd00::/8")).toEqual(["10.0.0.1", "10.1.0.0/16", "::1", "fd00::/8"]);
  });

  it("refuses anything else at start, naming the variable and the accepted forms", () => {
    for (const wrong of ["maybe", "10.0.0.1,nope", "10.0.0.0/33", "1.2.3.4/", "-1", "101", "10.0.0.1,"]) {
      expect(parseTrustProxy(wrong)).toHaveProperty("error");
    }
    expect(() => loadConfig({ TRUST_PROXY: "everything" })).toThrow(
      /TRUST_PROXY: TRUST_PROXY must be false, true \(one proxy\), a hop count/,
    );
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8" }).TRUST_PROXY).toEqual(["10.0.0.0/8"]);
  });
});
