import { describe, expect, it } from "vitest";
import { fitColumns } from "../../src/cli/terminal-width.js";

describe("fitColumns", () => {
  it("keeps a text that fits, counting wide characters twice and combining marks not at all", () => {
    expect(fitColumns("abcde", 5)).toBe("abcde");
    expect(fitColumns("界界", 4)).toBe("界界");
    expect(fitColumns("e\u0301".repeat(5), 5)).toBe("e\u0301".repeat(5));
    expect(fitColumns("", 0)).toBe("");
  });

  it("cuts a text that does not fit to at most the columns, … included, never inside a character", () => {
    expect(fitColumns("abcdef", 5)).toBe("abcd…");
    expect(fitColumns("界界界", 5)).toBe("界界…");
    expect(fitColumns("界界界", 4)).toBe("界…");
    expect(fitColumns("a😀😀", 4)).toBe("a😀…");
    expect(fitColumns("ab😀c", 4)).toBe("ab…");
    expect(fitColumns("ｆｕｌｌ", 6)).toBe("ｆｕ…");
  });
});
