import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { believedAddress, isPlainAddress, parseTrustProxy, type TrustHops } from "./trust-proxy.js";

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

describe("the client address behind trusted proxies", () => {
  it("believes only IPv4 and IPv6 addresses: no names, ports, zones, markup or empty entries", () => {
    for (const good of ["203.0.113.9", "10.1.2.3", "::1", "2001:db8::1", "::ffff:198.51.100.20"]) expect(isPlainAddress(good)).toBe(true);
    for (const bad of [
      "not-an-ip<script>",
      "unknown",
      "",
      "203.0.113.9:443",
      "[2001:db8::1]",
      "fe80::1%eth0",
      "01.2.3.4",
      "1.2.3",
      "example.com",
    ]) {
      expect({ bad, believed: isPlainAddress(bad) }).toEqual({ bad, believed: false });
    }
  });

  it("walks out from the socket's peer through valid addresses, stopping before the first invalid one", () => {
    expect(believedAddress(["127.0.0.1"])).toBe("127.0.0.1");
    expect(believedAddress(["127.0.0.1", "203.0.113.9"])).toBe("203.0.113.9");
    expect(believedAddress(["127.0.0.1", "not-an-ip<script>"])).toBe("127.0.0.1");
    // Behind two proxies: a broken entry past the nearest one leaves the nearest one.
    expect(believedAddress(["10.0.0.1", "10.0.0.2", "garbage"])).toBe("10.0.0.2");
    expect(believedAddress(["10.0.0.1", "garbage", "203.0.113.9"])).toBe("10.0.0.1");
  });
});
