import { describe, expect, it } from "vitest";
import { shouldUseColor } from "../../src/cli/color.js";
import { absolutizeCommand, resolveCodexTarget } from "../../src/cli/codex-target.js";
import { parseTimeoutSeconds } from "../../src/cli/turn-options.js";

describe("parseTimeoutSeconds", () => {
  it("accepts positive decimal seconds and returns milliseconds", () => {
    expect(parseTimeoutSeconds("600")).toBe(600_000);
    expect(parseTimeoutSeconds("2.5")).toBe(2_500);
    expect(parseTimeoutSeconds(".5")).toBe(500);
    expect(parseTimeoutSeconds("0.0001")).toBe(1);
  });

  it.each(["0", "-1", "abc", "10s", "", "1e3", "Infinity", "2147484"])("rejects %j", (value) => {
    expect(() => parseTimeoutSeconds(value)).toThrow();
  });
});

describe("shouldUseColor", () => {
  it("colours only on a terminal, without --no-color and without a non-empty NO_COLOR", () => {
    expect(shouldUseColor({ isTTY: true, env: {}, flag: true })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: {}, flag: true })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: {}, flag: false })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: "1" }, flag: true })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: "" }, flag: true })).toBe(true);
  });
});

describe("codex target resolution", () => {
  it("makes paths with a directory part absolute and leaves bare names for PATH", () => {
    expect(absolutizeCommand("codex", "/home/u")).toBe("codex");
    expect(absolutizeCommand("./codex", "/home/u")).toBe("/home/u/codex");
    expect(absolutizeCommand("bin/codex", "/home/u")).toBe("/home/u/bin/codex");
    expect(absolutizeCommand("/opt/codex", "/home/u")).toBe("/opt/codex");
  });

  it("prefers --codex-bin, then RENNET_CODEX_BIN, then codex on PATH", async () => {
    const env = { RENNET_CODEX_BIN: "/env/codex" };
    expect(await resolveCodexTarget({ codexBin: "/flag/codex", env, cwd: "/" })).toEqual({
      type: "found",
      target: { command: "/flag/codex" },
      source: "flag",
    });
    expect(await resolveCodexTarget({ env, cwd: "/" })).toMatchObject({
      target: { command: "/env/codex" },
      source: "env",
    });
    expect(await resolveCodexTarget({ env: { RENNET_CODEX_BIN: "" }, cwd: "/" })).toMatchObject({
      target: { command: "codex" },
      source: "path",
    });
  });
});
