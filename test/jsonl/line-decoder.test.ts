import { describe, expect, it } from "vitest";
import { LineDecoder, type DecodedLine } from "../../src/jsonl/line-decoder.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `bytes` split at the given offsets, then ends the stream. */
function decodeSplit(bytes: Uint8Array, offsets: number[], maxLineBytes?: number): DecodedLine[] {
  const decoder = new LineDecoder(maxLineBytes);
  const out: DecodedLine[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(start, offset)));
    start = offset;
  }
  out.push(...decoder.end());
  return out;
}

const lines = (texts: string[]): DecodedLine[] => texts.map((text) => ({ type: "line", text }));

describe("LineDecoder", () => {
  // 2-byte é, 3-byte €, 4-byte 😀 (a surrogate pair in JS), next to ASCII and newlines
  const text = '{"a":"é€😀"}\n{"b":"x😀y"}\n';
  const bytes = utf8(text);
  const expected = lines(['{"a":"é€😀"}', '{"b":"x😀y"}']);

  it("reassembles two lines split into two chunks at every byte offset", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(decodeSplit(bytes, [cut]), `cut at ${cut}`).toEqual(expected);
    }
  });

  it("reassembles lines fed one byte at a time (every multi-byte character split at each of its bytes)", () => {
    const offsets = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(decodeSplit(bytes, offsets)).toEqual(expected);
  });

  it("reassembles every pair of cut points inside a 4-byte character", () => {
    const start = bytes.indexOf(0xf0); // first byte of 😀
    for (let a = start; a <= start + 4; a++) {
      for (let b = a; b <= start + 4; b++) {
        expect(decodeSplit(bytes, [a, b]), `cuts ${a},${b}`).toEqual(expected);
      }
    }
  });

  it("decodes the lines of a chunk at once exactly as one at a time, also behind a line carried over", () => {
    // many lines per chunk (decoded in one go when none can exceed the cap) next to a line at the cap, CRLF,
    // blank lines, multi-byte characters and bytes that are not UTF-8
    const input = new Uint8Array([
      ...utf8('{"a":"é€"}\r\n\n{"b":"😀"}\n' + "x".repeat(24) + '\n  \n{"c":3}\n'),
      0xe2,
      0x82,
      0x0a,
      ...utf8('{"d":"x😀"}\n{"e":'),
    ]);
    for (const cap of [24, 4096]) {
      const oneByOne = decodeSplit(
        input,
        Array.from({ length: input.length - 1 }, (_, i) => i + 1),
        cap,
      );
      expect(oneByOne.length).toBeGreaterThan(5);
      for (let cut = 0; cut <= input.length; cut++)
        expect(decodeSplit(input, [cut], cap), `cap ${cap}, cut at ${cut}`).toEqual(oneByOne);
    }
  });

  it("drops the \\r of CRLF line endings, also when the \\r and \\n arrive in different chunks", () => {
    const crlf = utf8('{"a":1}\r\n{"b":2}\r\n');
    for (let cut = 0; cut <= crlf.length; cut++) {
      expect(decodeSplit(crlf, [cut]), `cut at ${cut}`).toEqual(lines(['{"a":1}', '{"b":2}']));
    }
  });

  it("keeps a \\r that is not at the end of a line", () => {
    expect(decodeSplit(utf8('{"a":"x\ry"}\n'), [])).toEqual(lines(['{"a":"x\ry"}']));
  });

  it("skips blank and whitespace-only lines", () => {
    expect(decodeSplit(utf8('\n\r\n   \n{"a":1}\n\n\t\r\n{"b":2}\n\n'), [])).toEqual(
      lines(['{"a":1}', '{"b":2}']),
    );
  });

  it("flushes a final line that has no newline at end of stream", () => {
    expect(decodeSplit(utf8('{"a":1}\n{"b":2}'), [3, 10])).toEqual(lines(['{"a":1}', '{"b":2}']));
  });

  it("returns nothing at end of stream when the last line was terminated", () => {
    const decoder = new LineDecoder();
    expect(decoder.push(utf8('{"a":1}\n'))).toEqual(lines(['{"a":1}']));
    expect(decoder.end()).toEqual([]);
  });

  it("returns lines as soon as their newline arrives, not at end of stream", () => {
    const decoder = new LineDecoder();
    expect(decoder.push(utf8('{"a":'))).toEqual([]);
    expect(decoder.push(utf8('1}\n{"b"'))).toEqual(lines(['{"a":1}']));
  });

  it("accepts a line of exactly the cap", () => {
    const line = "x".repeat(16);
    expect(decodeSplit(utf8(`${line}\n`), [], 16)).toEqual(lines([line]));
  });

  it("reports a line over the cap once, with its size and head, and still parses the next line", () => {
    const long = `{"big":"${"y".repeat(100)}"}`;
    const input = utf8(`${long}\n{"after":1}\n`);
    const expectedOut: DecodedLine[] = [
      { type: "overflow", bytes: long.length, head: long },
      { type: "line", text: '{"after":1}' },
    ];
    for (const cuts of [[], [5], [20, 40, 60], [long.length], [long.length + 1]]) {
      const out = decodeSplit(input, cuts, 32);
      expect(
        out.map((l) => l.type),
        `cuts ${cuts.join(",")}`,
      ).toEqual(["overflow", "line"]);
      const overflow = out[0] as Extract<DecodedLine, { type: "overflow" }>;
      expect(overflow.bytes, `cuts ${cuts.join(",")}`).toBe(long.length);
      expect(long.startsWith(overflow.head)).toBe(true);
      expect(overflow.head.length).toBeGreaterThan(0);
      expect(out[1]).toEqual(expectedOut[1]);
    }
  });

  it("bounds the head kept from an oversized line", () => {
    const out = decodeSplit(utf8(`${"z".repeat(5000)}\n`), [], 100);
    expect(out).toHaveLength(1);
    const overflow = out[0] as Extract<DecodedLine, { type: "overflow" }>;
    expect(overflow.type).toBe("overflow");
    expect(overflow.bytes).toBe(5000);
    expect(overflow.head.length).toBeLessThanOrEqual(512);
  });

  it("reports an oversized final line without a newline at end of stream", () => {
    const out = decodeSplit(utf8(`{"a":1}\n${"q".repeat(50)}`), [], 16);
    expect(out.map((l) => l.type)).toEqual(["line", "overflow"]);
  });

  it("does not carry a half multi-byte character of an oversized line into the next line", () => {
    // the cap falls inside the 4-byte character; the next line must decode cleanly
    const input = utf8(`${"a".repeat(14)}😀😀😀\n{"ok":"é"}\n`);
    for (let cut = 0; cut <= input.length; cut++) {
      const out = decodeSplit(input, [cut], 16);
      expect(
        out.map((l) => l.type),
        `cut at ${cut}`,
      ).toEqual(["overflow", "line"]);
      expect(out[1], `cut at ${cut}`).toEqual({ type: "line", text: '{"ok":"é"}' });
    }
  });

  it("decodes bytes that are not UTF-8 to U+FFFD the same way whether a line arrives whole or split", () => {
    // a lone continuation byte, an overlong form, and a 3-byte character cut short right before the newline
    const input = new Uint8Array([
      ...utf8('{"a":"x'),
      0x80,
      0xc0,
      0xaf,
      ...utf8('y"}\n{"b":"'),
      0xe2,
      0x82,
      ...utf8("\n"),
    ]);
    const whole = decodeSplit(input, []);
    expect(whole).toEqual(lines([Buffer.from(input.subarray(0, 13)).toString("utf8"), '{"b":"\ufffd']));
    for (let cut = 0; cut <= input.length; cut++)
      expect(decodeSplit(input, [cut]), `cut at ${cut}`).toEqual(whole);
  });
});
