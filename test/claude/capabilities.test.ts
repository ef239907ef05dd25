import { describe, expect, it } from "vitest";
import {
  assertClaudeCallSupported,
  CLAUDE_CAPABILITY_FROM,
  claudeCapabilities,
  MINIMUM_SUPPORTED_CLAUDE,
} from "../../src/claude/capabilities.js";
import {
  compareClaudeVersions,
  looksLikeClaudeVersionOutput,
  parseClaudeVersion,
} from "../../src/claude/claude-version.js";
import { ClaudeUnsupportedVersionError } from "../../src/claude/errors.js";

describe("parseClaudeVersion", () => {
  it("reads what `claude --version` and init print, from 1.0 to 2.1.332", () => {
    expect(parseClaudeVersion("2.1.332 (Claude Code)\n")).toEqual([2, 1, 332]);
    expect(parseClaudeVersion("1.0.128 (Claude Code)")).toEqual([1, 0, 128]);
    expect(parseClaudeVersion("v2.0.77")).toEqual([2, 0, 77]);
    expect(parseClaudeVersion("2.1.332-next.1")).toEqual([2, 1, 332]);
    expect(parseClaudeVersion("node 20.20.2 says 2.1.0")).toEqual([20, 20, 2]);
  });

  it("finds no version in text that holds none", () => {
    for (const text of ["", "Claude Code", "2.1", "1.2.3.4", "99999999999.0.0"])
      expect(parseClaudeVersion(text), text).toBeNull();
  });

  it("recognizes Claude Code's --version output and orders versions numerically", () => {
    expect(looksLikeClaudeVersionOutput("2.1.332 (Claude Code)")).toBe(true);
    expect(looksLikeClaudeVersionOutput("codex-cli 0.171.0")).toBe(false);
    expect(compareClaudeVersions([2, 1, 38], [2, 1, 112])).toBeLessThan(0);
    expect(compareClaudeVersions([2, 10, 0], [2, 9, 99])).toBeGreaterThan(0);
    expect(compareClaudeVersions([2, 0, 64], [2, 0, 64])).toBe(0);
  });
});

describe("claudeCapabilities", () => {
  it("holds the measured table for the four versions that were run", () => {
    const caps = (v: string) => claudeCapabilities(v);
    expect(caps("1.0.128").supported).toBe(false);
    expect(caps("2.0.77")).toEqual({
      version: "2.0.77",
      supported: true,
      effort: false,
      effortXhigh: false,
      structuredOutputBounded: false,
      resultTerminalReason: false,
      stopResultIsError: false,
      nativeBinary: false,
      permissionPromptsFlag: false,
      commandLifecycle: false,
      hostPermissionPrompts: false,
    });
    expect(caps("2.1.112")).toEqual(
      expect.objectContaining({
        effort: true,
        effortXhigh: true,
        structuredOutputBounded: false,
        resultTerminalReason: true,
        nativeBinary: false,
        commandLifecycle: false,
        hostPermissionPrompts: true,
      }),
    );
    const newest = caps("2.1.332 (Claude Code)");
    expect(Object.entries(newest).filter(([, value]) => value === false)).toEqual([]);
  });

  it("puts each boundary exactly at its first version", () => {
    expect(claudeCapabilities(MINIMUM_SUPPORTED_CLAUDE).supported).toBe(true);
    expect(claudeCapabilities("2.0.62").supported).toBe(false);
    for (const [name, from] of Object.entries(CLAUDE_CAPABILITY_FROM)) {
      const [major, minor, patch] = from.split(".").map(Number) as [number, number, number];
      expect(
        claudeCapabilities(from)[name as keyof typeof CLAUDE_CAPABILITY_FROM],
        `${name} at ${from}`,
      ).toBe(true);
      expect(
        claudeCapabilities(`${major}.${minor}.${patch - 1}`)[name as keyof typeof CLAUDE_CAPABILITY_FROM],
        `${name} before ${from}`,
      ).toBe(false);
    }
  });

  it("assumes the newest for an unknown version", () => {
    expect(claudeCapabilities(null)).toEqual(
      expect.objectContaining({ version: null, supported: true, effort: true }),
    );
    expect(claudeCapabilities("no version here").supported).toBe(true);
  });

  it("refuses a version older than the oldest supported with a message that names the fix", () => {
    expect(() => assertClaudeCallSupported(claudeCapabilities("2.0.77"), { approvals: false })).not.toThrow();
    let thrown: unknown;
    try {
      assertClaudeCallSupported(claudeCapabilities("1.0.128 (Claude Code)"), { approvals: false });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ClaudeUnsupportedVersionError);
    const error = thrown as ClaudeUnsupportedVersionError;
    expect(error.code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect([error.version, error.minimum, error.feature]).toEqual(["1.0.128", "2.0.64", null]);
    expect(error.message).toBe(
      "Claude Code 1.0.128 is older than the oldest supported 2.0.64 (the first release with " +
        "--no-session-persistence, which keeps Rennet's turns out of your transcript history); update it with " +
        "`claude update` (native installer) or `npm i -g @anthropic-ai/claude-code@latest`",
    );
  });
});
