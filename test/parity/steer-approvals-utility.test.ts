/**
 * Steering, a throwing approval handler and a structured-output violation, the same app code on both clients:
 * the same error codes from `steer()`, the same default decision recorded, the same `parse` failure shape.
 */
import { describe, expect, it } from "vitest";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { collect, ofType } from "../helpers/collect.js";
import { PARITY_HARNESSES, terminalShape } from "../helpers/parity-harnesses.js";
import { expectWellFormed } from "../helpers/well-formed.js";

const HANG_MS = 60_000;

describe("parity: steer", () => {
  it("an agent release that cannot steer: STEER_UNSUPPORTED from both", async () => {
    for (const harness of PARITY_HARNESSES) {
      const { client } = harness.make({
        codex: {
          turn: [fakeSteps.turnStarted(), { delayMs: HANG_MS }],
          replies: { initialize: { result: { userAgent: "codex_cli_rs/0.90.0 (fake)" } } },
        },
        claude: { turn: [claudeSteps.init({ version: "2.1.112" }), { delayMs: HANG_MS }] },
      });
      const session = client.runStreamed({ prompt: "hi" });
      await expect(session.steer("x"), harness.name).rejects.toMatchObject({
        name: "SteerError",
        code: "STEER_UNSUPPORTED",
      });
      session.cancel();
      await collect(session);
    }
  });

  it("a steer waiting for a turn cancelled before it existed, and one after the end: TURN_NOT_RUNNING", async () => {
    for (const harness of PARITY_HARNESSES) {
      const { client, launches } = harness.make({
        codex: { turn: fakeSteps.textTurn("x") },
        claude: { turn: claudeSteps.textTurn("x") },
      });
      const session = client.runStreamed({ prompt: "hi" });
      const early = session.steer("early");
      early.catch(() => undefined); // asserted after the stream ended
      session.cancel("stop");
      const { terminal } = await collect(session);
      expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "stop" });
      await expect(early, harness.name).rejects.toMatchObject({ code: "TURN_NOT_RUNNING" });
      await expect(session.steer("late"), harness.name).rejects.toMatchObject({ code: "TURN_NOT_RUNNING" });
      expect(launches()).toBe(0);
    }
  });
});

describe("parity: an approval handler that throws", () => {
  it("declines by default with the error recorded, and the turn goes on to complete", async () => {
    const resolved: unknown[] = [];
    for (const harness of PARITY_HARNESSES) {
      const { client } = harness.make({
        codex: {
          turn: [
            fakeSteps.turnStarted(),
            fakeSteps.commandApproval(0, { command: "/bin/bash -c 'ls'" }),
            { awaitReply: 0 },
            ...fakeSteps.textTurn("done").slice(1),
          ],
        },
        claude: {
          turn: [
            claudeSteps.init(),
            ...claudeSteps.toolUse("toolu_1", "Bash", { command: "ls" }),
            claudeSteps.canUseTool("r1", "toolu_1", "Bash", { command: "ls" }),
            { awaitControlResponse: "r1" },
            claudeSteps.toolResult("toolu_1", "declined", { isError: true }),
            ...claudeSteps.text("done", { messageId: "msg_fake_2" }),
            claudeSteps.result({ result: "done" }),
          ],
        },
      });
      const onRequest = (): never => {
        throw new Error("policy engine down");
      };
      const { events, terminal } = await collect(
        client.runStreamed({ prompt: "hi", approvals: { onRequest } }),
      );
      expectWellFormed(events, { harness: harness.name });
      expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "done" });
      expect(ofType(events, "approval.requested")).toHaveLength(1);
      const [one] = ofType(events, "approval.resolved");
      resolved.push({
        kind: one?.kind,
        decision: one?.decision,
        decidedBy: one?.decidedBy,
        error: one?.error,
      });
    }
    expect(resolved[0]).toEqual({
      kind: "command",
      decision: "decline",
      decidedBy: "default",
      error: "policy engine down",
    });
    expect(resolved[1]).toEqual(resolved[0]);
  });
});

describe("parity: a structured-output violation", () => {
  it("fails parse with the schema's errors on both, and utility() rejects with that terminal", async () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] } as const;
    const shapes: unknown[] = [];
    for (const harness of PARITY_HARNESSES) {
      const scripts = {
        codex: { turn: fakeSteps.textTurn('{"a":5}') },
        claude: {
          turn: [
            claudeSteps.init(),
            ...claudeSteps.text('{"a":5}'),
            claudeSteps.result({ result: '{"a":5}', structuredOutput: { a: 5 } }),
          ],
        },
      };
      const { terminal } = await collect(
        harness.make(scripts).client.utilityStreamed({ prompt: "hi", schema }),
      );
      expect(terminal.failure, harness.name).toMatchObject({
        source: "parse",
        errors: ["/a must be string"],
      });
      shapes.push(terminalShape(terminal));
      await expect(harness.make(scripts).client.utility({ prompt: "hi", schema })).rejects.toMatchObject({
        code: "TURN_FAILED",
        terminal: { failure: { source: "parse", errors: ["/a must be string"] } },
      });
    }
    expect(shapes[1]).toEqual(shapes[0]);
  });
});
