import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Utf8Chunks, utf8Bound } from "../../src/cli/utf8-chunks.js";

/** Writes `text` the way a caller must: reserve its bound, then write. */
function writeString(out: Utf8Chunks, text: string): void {
  out.reserve(utf8Bound(text));
  out.string(text);
}

const joined = (buffers: Buffer[]) => Buffer.concat(buffers).toString("utf8");

describe("Utf8Chunks", () => {
  it("writes strings as Buffer.from would encode them: ASCII, multi-byte, surrogate pairs, short and long", () => {
    const texts = [
      "",
      "a",
      "\u007f",
      "\u0080",
      '{"k":1}',
      "é",
      "naïve",
      "日本語",
      "😀",
      "x".repeat(64),
      "x".repeat(65),
      "é".repeat(200),
    ];
    for (const text of texts) {
      const out = new Utf8Chunks();
      writeString(out, text);
      expect(Buffer.concat(out.take())).toEqual(Buffer.from(text, "utf8"));
    }
  });

  it("writes any string of a JSON text exactly (JSON.stringify escapes lone surrogates)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (raw) => {
        const text = JSON.stringify(raw);
        const out = new Utf8Chunks(16);
        writeString(out, text);
        expect(joined(out.take())).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("bounds a short string without scanning it and measures a long one exactly", () => {
    expect(utf8Bound("ab")).toBe(6);
    expect(utf8Bound("x".repeat(100_000))).toBe(100_000);
    expect(utf8Bound("é".repeat(5000))).toBe(10_000);
    const out = new Utf8Chunks(1024);
    writeString(out, "é".repeat(5000));
    const [bytes] = out.take();
    // the chunk was sized for the line, not for three bytes per character
    expect(bytes?.buffer.byteLength).toBe(10_000);
  });

  it("writes non-negative integers in decimal, up to the largest safe integer", () => {
    for (const value of [0, 7, 9, 10, 99, 100, 12_345, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const out = new Utf8Chunks();
      out.reserve(16);
      out.uint(value);
      expect(joined(out.take())).toBe(String(value));
    }
  });

  it("copies bytes and single bytes in, short and long", () => {
    const out = new Utf8Chunks();
    const long = "0123456789abcdefghij";
    out.reserve(5 + long.length);
    out.bytes(Buffer.from("abc"));
    out.bytes(Buffer.from(long));
    out.byte(0x7d);
    out.byte(0x0a);
    expect(joined(out.take())).toBe(`abc${long}}\n`);
  });

  it("writes a string as JSON.stringify would where that is the string in quotes, and nothing otherwise", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 80 })),
        (text) => {
          const out = new Utf8Chunks(32);
          out.reserve(1);
          out.byte(0x5b);
          out.reserve(text.length + 2);
          const plain = out.plainJsonString(text);
          const expected = JSON.stringify(text);
          // printable ASCII but `"` and `\`: the characters JSON.stringify writes as they are
          expect(plain).toBe(text.length <= 64 && /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(text));
          expect(joined(out.take())).toBe(plain ? `[${expected}` : "[");
        },
      ),
      { numRuns: 500 },
    );
    const out = new Utf8Chunks();
    out.reserve(20);
    for (const text of ['a"b', "a\\b", "tab\t", "\u007f", "é", "x".repeat(65)])
      expect(out.plainJsonString(text)).toBe(false);
    expect(out.plainJsonString("w0 ")).toBe(true);
    expect(joined(out.take())).toBe('"w0 "');
  });

  it("keeps what is written after one reserve in one chunk, and hands chunks out in order", () => {
    const out = new Utf8Chunks(8);
    const lines = ["12345\n", "abcdefghijkl\n", "z\n", "é".repeat(5) + "\n"];
    for (const line of lines) writeString(out, line);
    expect(out.length).toBe(Buffer.byteLength(lines.join("")));
    const taken = out.take();
    // a piece longer than a chunk gets a chunk of its own size; no line is split between buffers
    expect(taken.length).toBeGreaterThan(1);
    for (const bytes of taken) expect(bytes.toString("utf8")).toMatch(/^([^\n]+\n)+$/);
    expect(joined(taken)).toBe(lines.join(""));
    expect(out.length).toBe(0);
    expect(out.take()).toEqual([]);
  });

  it("never writes again into bytes it handed out", () => {
    // a chunk large enough that what is left of it after a take is used on
    const out = new Utf8Chunks(4096);
    writeString(out, "first\n");
    const [first] = out.take();
    for (let index = 0; index < 50; index++) writeString(out, `line ${index}\n`);
    const rest = out.take();
    expect(first?.toString("utf8")).toBe("first\n");
    expect(joined(rest)).toBe(Array.from({ length: 50 }, (_, index) => `line ${index}\n`).join(""));
  });

  it("reproduces any sequence of writes and takes", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 90 }).map((text) => ({ type: "string" as const, text })),
      fc.nat().map((value) => ({ type: "uint" as const, value })),
      fc.constant({ type: "take" as const }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 128 }), fc.array(piece, { maxLength: 60 }), (size, pieces) => {
        const out = new Utf8Chunks(size);
        const taken: Buffer[] = [];
        let expected = "";
        for (const each of pieces) {
          if (each.type === "take") taken.push(...out.take());
          else if (each.type === "uint") {
            out.reserve(16);
            out.uint(each.value);
            expected += String(each.value);
          } else {
            writeString(out, each.text);
            expected += each.text;
          }
        }
        taken.push(...out.take());
        expect(joined(taken)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
