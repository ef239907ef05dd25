import path from "node:path";
import { describe, expect, it } from "vitest";
import { intendedClaudeCommand } from "../../../src/claude/client/intended-claude-command.js";

describe("intendedClaudeCommand (what failures before resolution name)", () => {
  it("resolves a relative RENNET_CLAUDE_BIN against the process's cwd, as resolution does", () => {
    expect(intendedClaudeCommand(undefined, { RENNET_CLAUDE_BIN: "tools/claude" })).toBe(
      path.resolve("tools/claude"),
    );
  });

  it("resolves a relative explicit path the same way, and prefers it", () => {
    expect(intendedClaudeCommand("./my-claude", { RENNET_CLAUDE_BIN: "/opt/claude" })).toBe(
      path.resolve("my-claude"),
    );
  });

  it("keeps a bare name, and reads an empty RENNET_CLAUDE_BIN as unset", () => {
    expect(intendedClaudeCommand(undefined, { RENNET_CLAUDE_BIN: "claude-beta" })).toBe("claude-beta");
    expect(intendedClaudeCommand(undefined, { RENNET_CLAUDE_BIN: "" })).toBe("claude");
    expect(intendedClaudeCommand(undefined, {})).toBe("claude");
  });
});
