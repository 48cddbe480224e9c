import { describe, expect, it } from "vitest";
import { ipv6Groups, isRefusedAddress, isRefusedHostName } from "./address-rules.js";
import { checkedAddress, McpError, parseMcpUrl } from "./guarded-fetch.js";

describe("MCP address rules", () => {
  it.each([
    "169.254.169.254",
    "169.254.0.1",
    "169.254.255.255",
    "100.100.100.200",
    "168.63.129.16",
    "fe80::1",
    "fe80::1%eth0",
    "febf:ffff::1",
    "[fe80::abcd]",
    "fd00:ec2::254",
    "fd20:ce::254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:a9fe:a9fe",
    "::169.254.169.254",
    "64:ff9b::169.254.169.254",
    "64:ff9b::a9fe:a9fe",
    "not-an-address",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "10.0.0.5",
    "192.168.1.20",
    "172.16.0.1",
    "100.64.0.1",
    "169.253.255.255",
    "169.255.0.1",
    "8.8.8.8",
    "::1",
    "fd00::1",
    "fec0::1",
    "fd00:ec2::253",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "2001:db8::1",
  ])("allows %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it("reads IPv6 groups, an embedded IPv4 included", () => {
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups("fe80::1")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups("1.2.3.4")).toBeNull();
  });

  it("refuses the metadata services' names in any case, with a final dot", () => {
    expect(isRefusedHostName("metadata.google.internal")).toBe(true);
    expect(isRefusedHostName("METADATA.Google.Internal.")).toBe(true);
    expect(isRefusedHostName("mcp.example.com")).toBe(false);
  });

  it("parses registered URLs: http(s) only, no credentials, no refused literal in any spelling", () => {
    expect(parseMcpUrl("http://127.0.0.1:3000/mcp").host).toBe("127.0.0.1:3000");
    expect(() => parseMcpUrl("ftp://example.com/")).toThrow("The URL must start with http:// or https://");
    expect(() => parseMcpUrl("file:///etc/passwd")).toThrow(McpError);
    expect(() => parseMcpUrl("http://user:pw@example.com/")).toThrow("user name or password");
    expect(() => parseMcpUrl("nonsense")).toThrow("The URL is not a valid address");
    for (const url of [
      "http://169.254.169.254/",
      "http://2852039166/",
      "http://0xa9.0xfe.0xa9.0xfe/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fe80::1]/",
      "http://metadata.google.internal/computeMetadata/v1/",
    ]) {
      expect(() => parseMcpUrl(url), url).toThrow("link-local or cloud metadata");
    }
  });

  it("checks every address a name resolves to", async () => {
    const lookup = async (host: string) =>
      host === "rebind.test"
        ? [
            { address: "127.0.0.1", family: 4 },
            { address: "169.254.169.254", family: 4 },
          ]
        : [{ address: "10.1.2.3", family: 4 }];
    await expect(checkedAddress("rebind.test", lookup)).rejects.toThrow("rebind.test resolves to 169.254.169.254");
    await expect(checkedAddress("fine.test", lookup)).resolves.toEqual({ address: "10.1.2.3", family: 4 });
    await expect(checkedAddress("nowhere.test", async () => [])).rejects.toThrow("could not be found");
    await expect(checkedAddress("[::1]", lookup)).resolves.toEqual({ address: "::1", family: 6 });
  });
});
