/**
 * A launcher must report a failed spawn through its child's `exit`; an injected one that throws instead must
 * still end the turn (a `spawn` failure naming what it threw), never leave `run()` pending with an unhandled
 * rejection.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { LaunchSpec, StdioChild } from "../../src/process/stdio-child.js";

const launcher = (_spec: LaunchSpec): StdioChild => {
  throw new Error("launcher broke");
};

describe("an injected launcher that throws", () => {
  it.each([
    ["claude", () => createClaudeCode({ launcher, env: { IS_SANDBOX: "1" } })],
    ["codex", () => createCodex({ launcher })],
  ] as const)("%s: the turn fails as a failed spawn", async (_, client) => {
    const error: unknown = await client()
      .run({ prompt: "hi", cwd: process.cwd() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "TURN_FAILED",
      terminal: { failure: { source: "spawn" } },
    });
    expect(String((error as Error).message)).toContain("launcher broke");
  });
});
