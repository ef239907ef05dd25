import { describe, expect, it } from "vitest";
import { parseCodexVersion } from "../../../src/codex/versions/version-text.js";

describe("parseCodexVersion", () => {
  it.each([
    ["codex-cli 0.171.0\n", "0.171.0"],
    ["codex-cli 0.172.0-alpha.3", "0.172.0-alpha.3"],
    ["codex 1.2.3", "1.2.3"],
    ["v0.9.1\n", "0.9.1"],
    ["WARNING: something\ncodex-cli 0.130.0\n", "0.130.0"],
  ])("%j → %s", (output, version) => {
    expect(parseCodexVersion(output)).toBe(version);
  });

  it.each(["", "hello", "codex-cli", "build 2024.10"])("%j has no version", (output) => {
    expect(parseCodexVersion(output)).toBeNull();
  });
});
