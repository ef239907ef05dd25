import { describe, expect, it } from "vitest";
import { EXIT_CODES, exitCodeForTerminal } from "../../src/cli/exit-codes.js";
import type { RennetErrorCode } from "../../src/error-codes.js";

describe("exitCodeForTerminal", () => {
  it("maps outcomes, and a failure that found no usable Codex to 3", () => {
    expect(exitCodeForTerminal({ outcome: "completed", failure: null })).toBe(EXIT_CODES.completed);
    expect(exitCodeForTerminal({ outcome: "cancelled", failure: null })).toBe(EXIT_CODES.cancelled);
    const spawn = (code?: RennetErrorCode) => ({
      outcome: "failed" as const,
      failure: {
        source: "spawn" as const,
        message: "x",
        errno: null,
        command: "codex",
        ...(code ? { code } : {}),
      },
    });
    expect(exitCodeForTerminal(spawn())).toBe(EXIT_CODES.failed);
    expect(exitCodeForTerminal(spawn("MCP_INVENTORY_FAILED"))).toBe(EXIT_CODES.failed);
    expect(exitCodeForTerminal(spawn("CODEX_UNSUPPORTED_VERSION"))).toBe(EXIT_CODES.agentUnavailable);
    expect(exitCodeForTerminal(spawn("CODEX_UNAVAILABLE"))).toBe(EXIT_CODES.agentUnavailable);
  });
});
