import { describe, expect, it } from "vitest";
import { ByteTail, decodeUtf8Whole } from "../../src/process/byte-tail.js";

describe("decodeUtf8Whole", () => {
  const euro = Buffer.from("€", "utf8"); // e2 82 ac

  it("drops a character cut off at the start", () => {
    expect(decodeUtf8Whole(Buffer.concat([euro.subarray(1), Buffer.from("ab")]))).toBe("ab");
    expect(decodeUtf8Whole(Buffer.concat([euro.subarray(2), Buffer.from("ab")]))).toBe("ab");
  });

  it("drops an incomplete character at the end", () => {
    expect(decodeUtf8Whole(Buffer.concat([Buffer.from("ab"), euro.subarray(0, 2)]))).toBe("ab");
    expect(decodeUtf8Whole(Buffer.concat([Buffer.from("ab"), Buffer.from("😀").subarray(0, 3)]))).toBe("ab");
  });

  it("keeps complete text untouched", () => {
    expect(decodeUtf8Whole(Buffer.from("a€😀é"))).toBe("a€😀é");
    expect(decodeUtf8Whole(Buffer.alloc(0))).toBe("");
  });
});

describe("ByteTail", () => {
  it("keeps only the last maxBytes bytes, never splitting a character", () => {
    const tail = new ByteTail(10);
    for (const piece of Buffer.from("0123456789€€€€xyz")) tail.push(Buffer.from([piece]));
    const text = tail.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(10);
    // the last 10 bytes start inside the second-to-last-but-one "€", whose remnant is dropped
    expect(text).toBe("€€xyz");
    expect(text).not.toContain("\uFFFD");
  });

  it("bounds memory for one huge chunk", () => {
    const tail = new ByteTail(8);
    tail.push("x".repeat(1_000_000) + "abcdefgh");
    expect(tail.text()).toBe("abcdefgh");
  });

  it("is empty before anything is pushed", () => {
    expect(new ByteTail().text()).toBe("");
  });
});
