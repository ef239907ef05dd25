import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { McpPolicyError } from "../../../src/mcp/mcp-policy-error.js";
import {
  renderTomlInlineChecked,
  tomlTable,
  type TomlInlineTable,
} from "../../../src/codex/mcp/mcp-overrides-toml.js";
import { diffTomlValue, renderTomlInline, tomlKey } from "../../../src/internal/test-hooks.js";

/** Names and values a TOML writer must carry: every kind the issue lists, and a few more. */
const HOSTILE = [
  "plain",
  "with space",
  "dot.ted",
  "a.b.c",
  'double"quote',
  "single'quote",
  "back\\slash",
  "trailing\\",
  '\\"',
  "ünïcödé ✓ 日本語 😀",
  "new\nline",
  "carriage\rreturn",
  "tab\there",
  "nul\u0000byte",
  "ctl\u0001\u0008\u000b\u000c\u001b\u001f",
  "del\u007f",
  "c1\u0080\u009f",
  "bom\ufeff",
  "line sep\u2028para\u2029",
  "=",
  "[table]",
  "{inline}",
  "#comment",
  "-",
  "_",
  "123",
  "true",
  "inf",
  "__proto__",
  "constructor",
  "",
  " ",
];

function readBack(rendered: string): unknown {
  return parse(`x = ${rendered}`).x;
}

describe("tomlKey", () => {
  it("leaves bare keys bare and quotes everything else", () => {
    expect(tomlKey("abc-DEF_123")).toBe("abc-DEF_123");
    expect(tomlKey("a.b")).toBe('"a.b"');
    expect(tomlKey("")).toBe('""');
    expect(tomlKey("a b")).toBe('"a b"');
    expect(tomlKey("ü")).toBe('"ü"');
    expect(tomlKey('q"')).toBe('"q\\""');
    expect(tomlKey("del\u007f")).toBe('"del\\u007f"');
  });
});

describe("renderTomlInline", () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text), text]))(
    "round-trips %s as a key and as a value",
    (_label, text) => {
      const table = tomlTable([
        [
          text,
          tomlTable([
            ["enabled", false],
            ["url", text],
            ["command", `${text}|${text}`],
          ]),
        ],
      ]);
      const rendered = renderTomlInlineChecked(table);
      // one line, and no raw control character or DEL: codex reads `-c` values as TOML 1.0 on one line
      // eslint-disable-next-line no-control-regex
      expect(rendered).not.toMatch(/[\u0000-\u001f\u007f]/);
      const back = readBack(rendered) as Record<string, Record<string, unknown>>;
      expect(Object.keys(back)).toEqual([text]);
      expect(back[text]).toEqual({ enabled: false, url: text, command: `${text}|${text}` });
    },
  );

  it("renders every hostile name at once, with no key lost or merged", () => {
    const table = tomlTable(HOSTILE.map((name, index) => [name, tomlTable([["n", index]])] as const));
    const back = readBack(renderTomlInlineChecked(table)) as Record<string, { n: number }>;
    expect(Object.keys(back).sort()).toEqual([...HOSTILE].sort());
    HOSTILE.forEach((name, index) => expect(back[name]?.n).toBe(index));
  });

  it("writes numbers, booleans, empty and nested tables", () => {
    expect(renderTomlInline(tomlTable([]))).toBe("{}");
    expect(
      renderTomlInline(
        tomlTable([
          ["a", 10],
          ["b", 2.5],
          ["c", true],
          ["d", tomlTable([])],
        ]),
      ),
    ).toBe("{ a = 10, b = 2.5, c = true, d = {} }");
    expect(() => renderTomlInline(Number.NaN)).toThrow();
  });

  it("writes DEL as \\u007f, which JSON escaping alone would leave raw", () => {
    expect(renderTomlInline("a\u007fb")).toBe('"a\\u007fb"');
    expect(JSON.stringify("a\u007fb")).toBe('"a\u007fb"');
  });
});

describe("renderTomlInlineChecked", () => {
  function roundTripError(table: TomlInlineTable): McpPolicyError {
    try {
      renderTomlInlineChecked(table);
    } catch (error) {
      expect(error).toBeInstanceOf(McpPolicyError);
      expect((error as McpPolicyError).code).toBe("MCP_TOML_ROUNDTRIP");
      return error as McpPolicyError;
    }
    return expect.unreachable("expected MCP_TOML_ROUNDTRIP");
  }

  it("refuses a lone surrogate in a value (the writer would replace it)", () => {
    const error = roundTripError(tomlTable([["s", tomlTable([["url", "http://127.0.0.1/\ud800"]])]]));
    expect(error.message).toContain('$["s"]["url"]');
  });

  it("names where a value differs but never the value: a header or URL may hold a credential", () => {
    const headers = tomlTable([["Authorization", "Bearer TOPSECRET\ud800"]]);
    const error = roundTripError(tomlTable([["s", tomlTable([["http_headers", headers]])]]));
    expect(error.message).toContain('$["s"]["http_headers"]["Authorization"]');
    expect(error.message).not.toContain("TOPSECRET");
    const url = roundTripError(
      tomlTable([["s", tomlTable([["url", "http://127.0.0.1/?k=TOPSECRET\ud800"]])]]),
    );
    expect(url.message).not.toContain("TOPSECRET");
  });

  it("refuses a lone surrogate in a key (the writer cannot write it)", () => {
    roundTripError(tomlTable([["bad\udc00", tomlTable([["enabled", false]])]]));
  });

  it("refuses a key written twice", () => {
    const error = roundTripError(
      tomlTable([
        ["a", 1],
        ["a", 2],
      ]),
    );
    expect(error.message).toMatch(/could not be written|written twice/);
  });
});

describe("diffTomlValue", () => {
  it("finds the first difference by path", () => {
    const intended = tomlTable([["a", tomlTable([["b", "x"]])]]);
    expect(diffTomlValue(intended, { a: { b: "x" } })).toBeNull();
    expect(diffTomlValue(intended, { a: { b: "y" } })).toContain('$["a"]["b"]');
    expect(diffTomlValue(intended, { a: { b: "x", c: 1 } })).toContain('["c"]: unexpected key');
    expect(diffTomlValue(intended, { a: {} })).toContain("missing");
    expect(diffTomlValue(intended, { a: "x" })).toContain("expected a table");
    expect(diffTomlValue(tomlTable([["n", 1]]), { n: "1" })).not.toBeNull();
  });
});
