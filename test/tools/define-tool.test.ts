import { describe, expect, it } from "vitest";
import { isRennetError } from "../../src/errors.js";
import { isAppTool } from "../../src/tools/app-tool.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { toolOutput } from "../../src/tools/tool-output.js";
import { checkAppToolsServerName, toolSet } from "../../src/tools/tool-set.js";

const base = { name: "t", description: "d", inputSchema: { type: "object" }, handler: () => "" } as const;

function codeOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return isRennetError(error) ? error.code : "not a RennetError";
  }
  return undefined;
}

describe("defineTool", () => {
  it("returns a frozen tool that isAppTool recognizes", () => {
    const tool = defineTool(base);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(isAppTool(tool)).toBe(true);
    expect(isAppTool({ ...base })).toBe(false);
  });

  it.each([
    ["an empty name", { ...base, name: "" }, "TOOL_INVALID"],
    ["a name with a space", { ...base, name: "look up" }, "TOOL_INVALID"],
    ["a 65-character name", { ...base, name: "x".repeat(65) }, "TOOL_INVALID"],
    ["an empty description", { ...base, description: " " }, "TOOL_INVALID"],
    ["no handler", { ...base, handler: undefined }, "TOOL_INVALID"],
    ["a non-object schema", { ...base, inputSchema: { type: "string" } }, "TOOL_INVALID"],
    [
      "a schema the meta-schema rejects",
      { ...base, inputSchema: { type: "object", required: "x" } },
      "SCHEMA_INVALID",
    ],
  ])("refuses %s", (_what, definition, code) => {
    expect(codeOf(() => defineTool(definition as never))).toBe(code);
  });

  it("refuses a field it does not know, naming the field to use instead", () => {
    const { inputSchema, handler, ...rest } = base;
    expect(() => defineTool({ ...rest, parameters: inputSchema, handler } as never)).toThrow(
      'defineTool(definition): unknown field "parameters": use inputSchema (fields: name, description, inputSchema, handler)',
    );
    expect(() => defineTool({ ...rest, inputSchema, execute: handler } as never)).toThrow(
      'unknown field "execute": use handler',
    );
    expect(codeOf(() => defineTool({ ...base, timeoutMs: 5 } as never))).toBe("TOOL_INVALID");
  });

  it("names the closest field for a misspelled one", () => {
    const { description, ...rest } = base;
    expect(() => defineTool({ ...rest, descripton: description } as never)).toThrow(
      'unknown field "descripton": did you mean description?',
    );
    expect(() => defineTool({ ...base, timeoutMs: 5 } as never)).toThrow(
      /unknown field "timeoutMs" \(fields:/,
    );
  });

  it("names the tool in a schema error", () => {
    expect(() =>
      defineTool({ ...base, name: "lookup", inputSchema: { type: "object", minProperties: -1 } }),
    ).toThrow(/^Tool lookup's inputSchema is not a valid JSON Schema/);
  });
});

describe("toolSet", () => {
  it("checks the list: tools only, distinct names; empty is none", () => {
    expect(toolSet([])).toBeNull();
    expect([...(toolSet([defineTool(base)])?.keys() ?? [])]).toEqual(["t"]);
    expect(codeOf(() => toolSet("t"))).toBe("TOOL_INVALID");
    expect(codeOf(() => toolSet([base]))).toBe("TOOL_INVALID");
    expect(() => toolSet([defineTool(base), defineTool(base)])).toThrow(
      /tools\[1\]: a tool named t is given twice/,
    );
  });

  it("keeps the app tools' MCP server name free of the call's own servers, only when there are tools", () => {
    const tools = toolSet([defineTool(base)]);
    const taken = { servers: [{ name: "docs" }, { name: "rennet" }] };
    expect(() => checkAppToolsServerName(tools, taken, "Claude Code")).toThrow(
      expect.objectContaining({
        code: "TOOL_INVALID",
        message:
          'the MCP server name "rennet" is where Claude Code reaches the app tools: rename that server in `mcp`',
      }),
    );
    expect(() => checkAppToolsServerName(null, taken, "Claude Code")).not.toThrow();
    expect(() => checkAppToolsServerName(tools, "inherit", "Claude Code")).not.toThrow();
    expect(() =>
      checkAppToolsServerName(tools, { servers: [{ name: "docs" }] }, "Claude Code"),
    ).not.toThrow();
  });
});

describe("toolOutput", () => {
  it.each([
    ["a string", "hi", [{ type: "text", text: "hi" }]],
    ["undefined", undefined, [{ type: "text", text: "" }]],
    ["an object", { a: 1 }, [{ type: "text", text: '{"a":1}' }]],
    ["null", null, [{ type: "text", text: "null" }]],
    [
      "content parts",
      {
        content: [
          { type: "text", text: "a" },
          { type: "image", url: "data:image/png;base64,AA==" },
        ],
      },
      [
        { type: "text", text: "a" },
        { type: "image", url: "data:image/png;base64,AA==" },
      ],
    ],
    [
      "a content-like object that is not parts",
      { content: [{ type: "audio" }] },
      [{ type: "text", text: '{"content":[{"type":"audio"}]}' }],
    ],
  ])("sends %s", (_what, value, content) => {
    expect(toolOutput(value)).toEqual({ ok: true, content });
  });

  it("refuses what JSON cannot encode", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(toolOutput(cycle)).toMatchObject({ ok: false, error: expect.stringMatching(/not JSON/) });
    expect(toolOutput(10n)).toMatchObject({ ok: false });
    expect(toolOutput(() => 1)).toMatchObject({ ok: false, error: "the tool returned function, not JSON" });
  });
});
