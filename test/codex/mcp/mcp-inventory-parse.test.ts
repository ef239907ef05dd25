import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseMcpInventory } from "../../../src/codex/mcp/mcp-inventory-parse.js";
import { McpPolicyError } from "../../../src/mcp/mcp-policy-error.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/mcp");
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), "utf8");

function shapeError(stdout: string): string {
  try {
    parseMcpInventory(stdout);
  } catch (error) {
    expect(error).toBeInstanceOf(McpPolicyError);
    expect((error as McpPolicyError).code).toBe("MCP_INVENTORY_SHAPE");
    return (error as Error).message;
  }
  return expect.unreachable("expected MCP_INVENTORY_SHAPE");
}

describe("parseMcpInventory", () => {
  it("reads codex 0.171.0's output: stdio, streamable_http, disabled and a project-layer server", () => {
    expect(parseMcpInventory(fixture("mcp-list-0.171.0.json"))).toEqual([
      {
        name: "http1",
        enabled: true,
        disabledReason: null,
        transport: { type: "streamable_http", url: "http://127.0.0.1:9/mcp" },
      },
      { name: "off1", enabled: false, disabledReason: null, transport: { type: "stdio", command: "sh" } },
      { name: "repolocal", enabled: true, disabledReason: null, transport: { type: "stdio", command: "sh" } },
      { name: "stdio1", enabled: true, disabledReason: null, transport: { type: "stdio", command: "sh" } },
      {
        name: "subl",
        enabled: true,
        disabledReason: null,
        transport: { type: "streamable_http", url: "http://127.0.0.1:9/subl" },
      },
    ]);
  });

  it("reads hostile names exactly as codex printed them", () => {
    const names = parseMcpInventory(fixture("mcp-list-hostile-names-0.171.0.json")).map(
      (entry) => entry.name,
    );
    expect(names).toEqual([
      "",
      "__proto__",
      "ctl\u0001\u001f",
      "del\u007f",
      "dot.ted name",
      'quo"te\\back',
      "ünï cödé ✓",
    ]);
  });

  it("reads an empty inventory", () => {
    expect(parseMcpInventory("[]\n")).toEqual([]);
  });

  it("ignores fields it does not need (tolerant of additions)", () => {
    const entries = parseMcpInventory(
      JSON.stringify([
        { name: "a", enabled: true, transport: { type: "stdio", command: "x", future: 1 }, future: { y: 2 } },
      ]),
    );
    expect(entries).toEqual([
      { name: "a", enabled: true, disabledReason: null, transport: { type: "stdio", command: "x" } },
    ]);
  });

  it.each([
    ["an unknown transport type", fixture("mcp-list-bad-transport.json"), '"sse"'],
    ["a stdio entry without command", fixture("mcp-list-stdio-without-command.json"), "no string command"],
    ["an object instead of an array", fixture("mcp-list-object-not-array.json"), "expected an array"],
    ["the human-readable listing", "No MCP servers configured yet.\n", "not JSON"],
    ["empty output", "", "not JSON"],
    ["a non-object entry", '["a"]', "entry 0 is not an object"],
    ["a missing name", '[{"enabled":true,"transport":{"type":"stdio","command":"x"}}]', "no string name"],
    [
      "a duplicate name",
      '[{"name":"a","enabled":true,"transport":{"type":"stdio","command":"x"}},{"name":"a","enabled":false,"transport":{"type":"stdio","command":"y"}}]',
      "listed twice",
    ],
    [
      "a string enabled",
      '[{"name":"a","enabled":"yes","transport":{"type":"stdio","command":"x"}}]',
      'boolean "enabled"',
    ],
    ["a missing transport", '[{"name":"a","enabled":true}]', "no transport"],
    [
      "an http entry without url",
      '[{"name":"a","enabled":true,"transport":{"type":"streamable_http"}}]',
      "no string url",
    ],
    [
      "a transport without type",
      '[{"name":"a","enabled":true,"transport":{"command":"x"}}]',
      "transport type",
    ],
  ])("refuses %s", (_what, stdout, fragment) => {
    expect(shapeError(stdout)).toContain(fragment);
  });
});
