/**
 * Regression: a frame nested thousands of levels deep used to parse and then crash a recursive consumer
 * (`JSON.stringify` in the CLI's JSON renderer) with a RangeError, so the CLI died without a terminal. The
 * framing now refuses it as a parse failure; these tests go through the public API, the real framing and the
 * CLI.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_NESTING_DEPTH } from "../../src/jsonl/json-nesting.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { runFakeClientSession } from "../helpers/fake-session.js";
import { runCli } from "../cli/helpers/cli-harness.js";

const DEEP = 5_000;
const nestedMessage = `frame nested deeper than ${DEFAULT_MAX_NESTING_DEPTH} levels`;

const runStreamed = runFakeClientSession;

describe("deeply nested frames", () => {
  it("a notification nested thousands of levels deep ends the turn with a parse failure", async () => {
    const { events, terminal } = await runStreamed({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.nested(DEEP, { method: "fuzz/deep" }),
        ...fakeSteps.textTurn("late"),
      ],
    });
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "parse" });
    expect(terminal.failure?.message).toContain(nestedMessage);
    expect(events.filter((e) => e.type === "passthrough")).toEqual([]);
    expect(() => JSON.stringify(events)).not.toThrow();
  });

  it("a server request nested thousands of levels deep is not answered and ends the turn with a parse failure", async () => {
    const { fake, events, terminal } = await runStreamed({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.nested(DEEP, { id: "srv-1", method: "item/tool/requestUserInput" }),
      ],
    });
    expect(terminal.failure).toMatchObject({ source: "parse" });
    expect(terminal.failure?.message).toContain(nestedMessage);
    expect(events.filter((e) => e.type === "request.answered")).toEqual([]);
    expect(fake.peer.received.filter((f) => f.id === "srv-1")).toEqual([]);
  });

  it(`a frame exactly ${DEFAULT_MAX_NESTING_DEPTH} levels deep is kept as evidence`, async () => {
    const { events, terminal } = await runStreamed({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.nested(DEFAULT_MAX_NESTING_DEPTH, { method: "fuzz/deep" }),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    expect(terminal.outcome).toBe("completed");
    expect(events.filter((e) => e.type === "passthrough").map((e) => e.reason)).toEqual(["unknown"]);
  });

  it.each([
    ["notification", { method: "fuzz/deep" }],
    ["server request", { id: 7, method: "item/tool/requestUserInput" }],
  ])(
    "rennet codex run --json prints a parse-failure terminal for a deeply nested %s",
    async (_kind, head) => {
      const { code, events } = await runCli(["codex", "run", "--json", "hi"], {
        script: { turn: [fakeSteps.turnStarted(), fakeSteps.nested(DEEP, head)] },
      });
      expect(code).toBe(1);
      const terminal = events().at(-1);
      expect(terminal).toMatchObject({ type: "terminal", outcome: "failed", failure: { source: "parse" } });
    },
  );
});
