import { describe, expect, it } from "vitest";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import type { FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { runClaudeCli } from "./helpers/claude-cli-harness.js";

/** `rennet claude run --ask`: the person at the terminal answers each permission prompt; the limit flags. */

const TTY = { stdin: true, stderr: true };

function asking(...commands: string[]): FakeClaudeStep[] {
  return [
    claudeSteps.init(),
    ...commands.flatMap((command, i) => [
      ...claudeSteps.toolUse(`toolu_${i}`, "Bash", { command }, { messageId: `msg_${i}` }),
      claudeSteps.canUseTool(`perm-${i}`, `toolu_${i}`, "Bash", { command }),
      { awaitControlResponse: `perm-${i}` } as FakeClaudeStep,
    ]),
    ...claudeSteps.text("done", { messageId: "msg_last" }),
    claudeSteps.result({ result: "done" }),
  ];
}

function answers(fake: { peer: { linesOf(type: string): Record<string, unknown>[] } }): unknown[] {
  return fake.peer.linesOf("control_response").map((l) => (l.response as { response: unknown }).response);
}

describe("rennet claude run --ask", () => {
  it("asks at the terminal in permission mode default (no IS_SANDBOX needed) and sends each answer", async () => {
    const { code, stderr, fake } = await runClaudeCli(["claude", "run", "--ask", "--no-color", "fix it"], {
      isTTY: TTY,
      env: {},
      stdin: "n\ny\n",
      script: { turn: asking("rm -rf build", "npm test") },
    });
    expect(code).toBe(0);
    expect(fake.launches[0]!.spec.args).toEqual(
      expect.arrayContaining(["--permission-mode=default", "--permission-prompt-tool=stdio"]),
    );
    expect(answers(fake)).toEqual([
      { behavior: "deny", message: expect.stringContaining("declined") },
      { behavior: "allow", updatedInput: { command: "npm test" } },
    ]);
    expect(stderr.text).toContain("? run: $ rm -rf build");
    expect(stderr.text).toContain("· declined by you");
  });

  it("refuses to start without a terminal (exit 2, nothing launched)", async () => {
    const { code, stderr, fake } = await runClaudeCli(["claude", "run", "--ask", "go"], {
      isTTY: { stdin: false, stderr: true },
    });
    expect(code).toBe(2);
    expect(stderr.text).toMatch(/--ask needs a terminal/);
    expect(fake.launches).toHaveLength(0);
  });

  it("--max-tool-calls stops the turn as cancelled with the limit named (exit 130)", async () => {
    const { code, events } = await runClaudeCli(["claude", "run", "--json", "--max-tool-calls", "0", "go"], {
      script: {
        turn: [claudeSteps.init(), ...claudeSteps.bash("toolu_1", "ls", { output: "a" }), { delayMs: 5000 }],
        onInterrupt: claudeSteps.interrupted({ duringTool: true }),
      },
    });
    expect(code).toBe(130);
    expect(events().at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxToolCalls", value: 0, reached: 1 } },
    });
  });
});
