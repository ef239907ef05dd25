import { describe, expect, it } from "vitest";
import { StreamedText } from "../../src/session/streamed-text.js";
import { STREAMED_BLOCK_DELTAS } from "../../src/internal/test-hooks.js";

describe("StreamedText", () => {
  it("has no text for an item that streamed none", () => {
    expect(new StreamedText().take("m1")).toBeUndefined();
  });

  it("joins every delta in order, across block boundaries, per item", () => {
    const text = new StreamedText();
    const deltas = Array.from({ length: STREAMED_BLOCK_DELTAS * 2 + 7 }, (_, index) => `d${index} `);
    for (const delta of deltas) {
      text.append("m1", delta);
      text.append("m2", delta.toUpperCase());
    }
    expect(text.take("m1")).toBe(deltas.join(""));
    expect(text.take("m2")).toBe(deltas.join("").toUpperCase());
  });

  it("keeps an empty delta and forgets an item once its text was taken", () => {
    const text = new StreamedText();
    text.append("m1", "");
    expect(text.take("m1")).toBe("");
    expect(text.take("m1")).toBeUndefined();
    text.append("m1", "again");
    expect(text.take("m1")).toBe("again");
  });

  it("keeps an item id that is also an Object.prototype key apart from the prototype", () => {
    const text = new StreamedText();
    expect(text.take("constructor")).toBeUndefined();
    text.append("__proto__", "x");
    expect(text.take("__proto__")).toBe("x");
  });
});
