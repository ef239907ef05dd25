import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseFrame } from "../../src/jsonl/frame-parser.js";
import { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from "../../src/jsonl/json-nesting.js";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";

/** `{"a":{"a":…{}…}}` with `depth` objects. */
function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
}

/** A notification whose params nest arrays so that the whole frame is `depth` levels deep. */
function nestedNotification(depth: number): string {
  return `{"method":"deep","params":{"v":${"[".repeat(depth - 2)}${"]".repeat(depth - 2)}}}`;
}

describe("exceedsNestingDepth", () => {
  it("counts objects and arrays opened inside each other, up to and over the limit", () => {
    expect(exceedsNestingDepth("{}", 1)).toBe(false);
    expect(exceedsNestingDepth('{"a":[]}', 1)).toBe(true);
    expect(exceedsNestingDepth('{"a":[]}', 2)).toBe(false);
    expect(exceedsNestingDepth(nestedObjects(10), 10)).toBe(false);
    expect(exceedsNestingDepth(nestedObjects(11), 10)).toBe(true);
  });

  it("measures depth, not the number of brackets: siblings do not add up", () => {
    const wide = `{"xs":[${Array.from({ length: 1000 }, () => '{"a":[1]}').join(",")}]}`;
    expect(exceedsNestingDepth(wide, 4)).toBe(false);
    expect(exceedsNestingDepth(wide, 3)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes and escaped backslashes included", () => {
    const brackets = "[{".repeat(1000);
    expect(exceedsNestingDepth(JSON.stringify({ s: brackets }), 1)).toBe(false);
    expect(exceedsNestingDepth(JSON.stringify({ s: `say "${brackets}"` }), 1)).toBe(false);
    // a string ending in a backslash: the quote after it closes the string, so the next bracket counts
    expect(exceedsNestingDepth(`{"s":"\\\\","t":[]}`, 1)).toBe(true);
    expect(exceedsNestingDepth(`{"s":"\\\\","t":[]}`, 2)).toBe(false);
  });

  it("does not throw on text that is not JSON", () => {
    expect(exceedsNestingDepth('{"unterminated', 1)).toBe(false);
    expect(exceedsNestingDepth("]]]]", 1)).toBe(false);
    expect(exceedsNestingDepth("", 1)).toBe(false);
  });
});

describe("parseFrame nesting cap", () => {
  const line = (text: string) => ({ type: "line" as const, text });

  it(`accepts a frame exactly ${DEFAULT_MAX_NESTING_DEPTH} levels deep and rejects one level more`, () => {
    expect(parseFrame(line(nestedNotification(DEFAULT_MAX_NESTING_DEPTH))).type).toBe("frame");
    const parsed = parseFrame(line(nestedNotification(DEFAULT_MAX_NESTING_DEPTH + 1)));
    expect(parsed).toMatchObject({
      type: "invalid",
      message: `frame nested deeper than ${DEFAULT_MAX_NESTING_DEPTH} levels`,
    });
    if (parsed.type === "invalid") expect(parsed.line.length).toBeLessThan(300);
  });

  it("takes the limit as a parameter", () => {
    expect(parseFrame(line(nestedObjects(3)), 3).type).toBe("frame");
    expect(parseFrame(line(nestedObjects(4)), 3)).toMatchObject({
      type: "invalid",
      message: "frame nested deeper than 3 levels",
    });
  });
});

describe("StreamTransport nesting cap (real framing)", () => {
  function reading(options: { maxNestingDepth?: number } = {}) {
    const input = new PassThrough();
    const transport = new StreamTransport(input, new PassThrough(), options);
    const frames: Record<string, unknown>[] = [];
    const invalid: { message: string; line: string }[] = [];
    const closed = new Promise<void>((resolve) =>
      transport.start({
        frame: (frame) => frames.push(frame),
        invalid: (message, text) => invalid.push({ message, line: text }),
        closed: () => resolve(),
      }),
    );
    return { input, frames, invalid, closed };
  }

  it("reports a notification and a server request nested thousands of levels deep as invalid and keeps reading", async () => {
    const { input, frames, invalid, closed } = reading();
    const deepRequest = `{"id":7,"method":"item/tool/requestUserInput","params":${nestedObjects(5000)}}`;
    const bytes = Buffer.from(`${nestedNotification(5000)}\n${deepRequest}\n{"method":"after"}\n`);
    // split inside the deep lines: the cap applies to whole lines, whatever the chunking
    for (let i = 0; i < bytes.length; i += 4093) input.write(bytes.subarray(i, i + 4093));
    input.end();
    await closed;
    expect(invalid.map((i) => i.message)).toEqual([
      `frame nested deeper than ${DEFAULT_MAX_NESTING_DEPTH} levels`,
      `frame nested deeper than ${DEFAULT_MAX_NESTING_DEPTH} levels`,
    ]);
    expect(invalid[1]?.line.startsWith('{"id":7,"method":"item/tool/requestUserInput"')).toBe(true);
    expect(frames).toEqual([{ method: "after" }]);
  });

  it("honours maxNestingDepth", async () => {
    const { input, frames, invalid, closed } = reading({ maxNestingDepth: 2 });
    input.end('{"method":"a","params":{}}\n{"method":"b","params":{"x":[]}}\n');
    await closed;
    expect(frames).toEqual([{ method: "a", params: {} }]);
    expect(invalid.map((i) => i.message)).toEqual(["frame nested deeper than 2 levels"]);
  });
});
