import { describe, expect, it } from "vitest";
import type { Tool } from "../../shared/contracts/tools.js";
import { groupTools, switchTool, toolSourceLabel } from "./tools.js";

const tool = (id: string, serverName: string | null = null): Tool => ({
  id,
  name: id.split(":").at(-1) ?? id,
  description: "",
  source: id.startsWith("builtin:") ? "builtin" : "mcp",
  serverName,
  needsApproval: false,
});

const offered = [tool("mcp:2:search", "Docs"), tool("builtin:current_time"), tool("mcp:7:add", "Lab"), tool("mcp:2:fetch", "Docs")];

describe("groupTools", () => {
  it("puts the built-in tools first, then each server's tools together under its name, in the list's order", () => {
    expect(groupTools(offered).map((g) => [g.label, g.tools.map((t) => t.id)])).toEqual([
      ["Built-in", ["builtin:current_time"]],
      ["Docs", ["mcp:2:search", "mcp:2:fetch"]],
      ["Lab", ["mcp:7:add"]],
    ]);
  });

  it("keeps two servers of the same name apart, and has no group for nothing", () => {
    const twins = [tool("mcp:1:a", "Same"), tool("mcp:3:b", "Same")];
    expect(groupTools(twins).map((g) => g.key)).toEqual(["mcp:1", "mcp:3"]);
    expect(groupTools([])).toEqual([]);
  });
});

describe("switchTool", () => {
  it("adds or removes one tool and answers the choice in the list's order", () => {
    expect(switchTool(offered, ["mcp:2:fetch"], "builtin:current_time", true)).toEqual(["builtin:current_time", "mcp:2:fetch"]);
    expect(switchTool(offered, ["builtin:current_time", "mcp:2:fetch"], "mcp:2:fetch", false)).toEqual(["builtin:current_time"]);
  });

  it("drops a tool no longer offered", () => {
    expect(switchTool(offered, ["mcp:9:gone", "mcp:7:add"], "mcp:2:search", true)).toEqual(["mcp:2:search", "mcp:7:add"]);
  });
});

describe("toolSourceLabel", () => {
  it("names a built-in tool's source, and an MCP tool's server while it is offered", () => {
    expect(toolSourceLabel("builtin:search_files", undefined)).toBe("Built-in");
    expect(toolSourceLabel("mcp:7:add", offered)).toBe("Lab");
    expect(toolSourceLabel("mcp:9:gone", offered)).toBe("MCP server");
  });
});
