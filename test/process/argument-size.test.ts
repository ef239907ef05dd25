import { describe, expect, it } from "vitest";
import { oversizeArgumentHint } from "../../src/process/argument-size.js";

describe("oversizeArgumentHint", () => {
  it("names the first argument past the per-entry limit by its start, escaped", () => {
    const spec = { command: "claude", args: ["-p", `--model=\u001b${"m".repeat(140_000)}`], env: {} };
    const hint = oversizeArgumentHint(spec, true);
    expect(hint).toMatch(/^argument 2 \(--model=\\u001bm+…\) is 140009 bytes, over the 131072-byte limit/);
  });

  it("without a per-entry limit (macOS), or with no entry past it, gives the total against ARG_MAX", () => {
    const spec = { command: "codex", args: ["x".repeat(140_000)], env: { A: "b" } };
    expect(oversizeArgumentHint(spec, false)).toBe(
      "the arguments and environment are 140011 bytes together, over the system's limit (getconf ARG_MAX): shorten them",
    );
  });
});
