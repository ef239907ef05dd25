import { describe, expect, it } from "vitest";
import { excerpt, parseFrame } from "../../src/jsonl/frame-parser.js";
import { PARSE_EXCERPT_CHARS } from "../../src/internal/test-hooks.js";

const line = (text: string) => ({ type: "line" as const, text });

describe("parseFrame", () => {
  it("returns a JSON object as a frame", () => {
    expect(parseFrame(line('{"id":1,"result":{"ok":true}}'))).toEqual({
      type: "frame",
      frame: { id: 1, result: { ok: true } },
    });
  });

  it("reports malformed JSON as invalid and keeps the line", () => {
    const parsed = parseFrame(line('{"id":1,'));
    expect(parsed.type).toBe("invalid");
    if (parsed.type !== "invalid") return;
    expect(parsed.message).toMatch(/^malformed JSON/);
    expect(parsed.line).toBe('{"id":1,');
  });

  it.each([
    ["array", "[1,2]"],
    ["number", "42"],
    ["string", '"hello"'],
    ["null", "null"],
    ["boolean", "true"],
  ])("reports a JSON %s as invalid (not an object)", (kind, text) => {
    const parsed = parseFrame(line(text));
    expect(parsed).toEqual({ type: "invalid", message: `expected a JSON object, got ${kind}`, line: text });
  });

  it("reports an overflow as invalid, naming the size", () => {
    const parsed = parseFrame({ type: "overflow", bytes: 123456, head: '{"method":"x"' });
    expect(parsed).toEqual({
      type: "invalid",
      message: "line of 123456 bytes exceeds the size cap",
      line: '{"method":"x"',
    });
  });

  it("truncates the offending line in the report", () => {
    const bad = `{${"x".repeat(5000)}`;
    const parsed = parseFrame(line(bad));
    expect(parsed.type).toBe("invalid");
    if (parsed.type !== "invalid") return;
    expect(parsed.line.length).toBeLessThan(PARSE_EXCERPT_CHARS + 40);
    expect(parsed.line.startsWith(bad.slice(0, PARSE_EXCERPT_CHARS))).toBe(true);
    expect(parsed.line).toContain(`${5001 - PARSE_EXCERPT_CHARS} more chars`);
  });
});

describe("excerpt", () => {
  it("keeps short text unchanged and marks how much was cut from long text", () => {
    expect(excerpt("abc", 3)).toBe("abc");
    expect(excerpt("abcdef", 3)).toBe("abc… (3 more chars)");
  });
});
