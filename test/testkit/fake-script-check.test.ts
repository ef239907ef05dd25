import { describe, expect, it } from "vitest";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";

/** The fake refuses a script it would otherwise skip or choke on silently (the turn then hung to its timeout). */
describe("InMemoryAppServer script check", () => {
  it("refuses a step list that is not an array and a step it does not know, naming where", () => {
    const cases: [unknown, string][] = [
      [{ turn: "hello" }, "turn"],
      [{ turn: [fakeSteps.turnStarted(), { delay: 5 }] }, "turn[1]"],
      [{ afterInitialize: [null] }, "afterInitialize[0]"],
      [{ onSteer: [{ send: {}, raw: "x" }] }, "onSteer[0]"],
      [{ onInterrupt: {} }, "onInterrupt"],
      [{ replies: { "turn/start": { reslt: {} } } }, "replies.turn/start"],
      [{ replies: "x" }, "replies"],
    ];
    for (const [script, field] of cases)
      expect(() => new InMemoryAppServer(script as never), field).toThrow(
        expect.objectContaining({
          code: "FAKE_SCRIPT_INVALID",
          details: { field },
          message: expect.stringContaining(field) as unknown,
        }),
      );
  });

  it("takes every documented step and reply", () => {
    expect(
      () =>
        new InMemoryAppServer({
          replies: {
            a: { result: 1, delayMs: 2 },
            b: { error: { code: 1, message: "m" } },
            c: { noReply: true },
            d: { exit: { code: 1 } },
            e: { closeStdout: true },
          },
          turn: [
            ...fakeSteps.textTurn("hi"),
            { raw: "x\n" },
            { delayMs: 1 },
            { exit: {} },
            { closeStdout: true },
            { exitKeepStdout: {} },
            { awaitReply: 1 },
            { hang: true },
            { chunk: { parts: [{ raw: "x" }] } },
          ],
        }),
    ).not.toThrow();
  });
});

describe("InMemoryClaude script check", () => {
  it("refuses a step list that is not an array, an unknown step or control reply, naming where", () => {
    const cases: [unknown, string][] = [
      [{ turn: "hello" }, "turn"],
      [{ startup: [{ stderr: "x" }, { exitCode: 1 }] }, "startup[1]"],
      [{ nextTurn: [undefined] }, "nextTurn[0]"],
      [{ onInterrupt: [{ send: {}, hang: true }] }, "onInterrupt[0]"],
      [{ controlReplies: { interrupt: { respnse: {} } } }, "controlReplies.interrupt"],
    ];
    for (const [script, field] of cases)
      expect(() => new InMemoryClaude(script as never), field).toThrow(
        expect.objectContaining({ code: "FAKE_SCRIPT_INVALID", details: { field } }),
      );
    expect(
      () =>
        new InMemoryClaude({
          startup: [{ stderr: "x" }, { exit: { code: 1 } }],
          turn: [
            ...claudeSteps.textTurn("hi"),
            { awaitControlResponse: "r" },
            { awaitSteer: true },
            { takeSteers: true },
            { mcpToolResult: { requestId: "r", toolUseId: "t" } },
            { delayMs: 1 },
            { raw: "x" },
            { closeStdout: true },
            { hang: true },
          ],
          controlReplies: { a: { response: {} }, b: { error: "e", delayMs: 1 }, c: { noReply: true } },
        }),
    ).not.toThrow();
  });
});
