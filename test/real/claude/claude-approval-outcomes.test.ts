/**
 * The real claude, offline: the handler outcomes beside accept and decline (claude-approvals.test.ts): cancel
 * ends the turn, a throwing or silent handler is a decline, a Write is asked about as a file change, and each
 * request's events come in the documented order. A release that would not ask (2.0.77) is refused instead.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, type TestContext } from "vitest";
import type { ApprovalRequest } from "../../../src/harness/approvals.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { expectApprovalEventOrder } from "../../helpers/approval-order.js";
import { ClaudeSetups, collect, ofType, claudeUnderTest } from "./claude-helpers.js";

const setups = new ClaudeSetups();
const claude = claudeUnderTest();

afterEach(() => setups.dispose());

function needsHostPrompts(context: TestContext): void {
  if (!claude.capabilities().hostPermissionPrompts) context.skip();
}

describe("approval outcomes against the real claude", () => {
  it("cancel: the command does not run and the turn ends cancelled", { timeout: 60_000 }, async (context) => {
    needsHostPrompts(context);
    const setup = await setups.create(scenarios.bash("echo c > cancelled.txt", { then: "never" }));
    const session = setup.claude.runStreamed({
      prompt: "write the file",
      cwd: setup.cwd,
      approvals: { onRequest: () => "cancel" },
    });
    const events = await collect(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "the app's approval handler cancelled the turn" },
    });
    expect(existsSync(path.join(setup.cwd, "cancelled.txt"))).toBe(false);
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision: "cancel", decidedBy: "handler" }),
    ]);
    expectApprovalEventOrder(events);
  });

  it.for([
    ["throws", () => Promise.reject(new Error("policy store down")), "default"],
    ["never answers", () => new Promise<never>(() => {}), "deadline"],
  ] as const)(
    "a handler that %s declines; the command does not run; the turn goes on",
    { timeout: 60_000 },
    async ([, handler, by], context) => {
      needsHostPrompts(context);
      const setup = await setups.create(scenarios.bash("echo u > unanswered.txt", { then: "carried on" }));
      let signal: AbortSignal | null = null;
      const session = setup.claude.runStreamed({
        prompt: "write the file",
        cwd: setup.cwd,
        approvals: { onRequest: (_r, c) => ((signal = c.signal), handler()), timeoutMs: 300 },
      });
      const events = await collect(session.events);
      expect(events.at(-1)).toMatchObject({ outcome: "completed", finalMessage: "carried on" });
      expect(existsSync(path.join(setup.cwd, "unanswered.txt"))).toBe(false);
      const resolved = ofType(events, "approval.resolved");
      expect(resolved).toEqual([expect.objectContaining({ decision: "decline", decidedBy: by })]);
      if (by === "default") expect(resolved[0]?.error).toContain("policy store down");
      else expect((signal as AbortSignal | null)?.reason).toMatchObject({ code: "APPROVAL_DEADLINE" });
      expectApprovalEventOrder(events);
    },
  );

  it(
    "a Write is asked about as a file change with its path and diff; declined, no file",
    { timeout: 60_000 },
    async (context) => {
      needsHostPrompts(context);
      // a Write of a new file: an Edit of one the model has not read is refused before claude asks (2.1.112)
      const setup = await setups.create(scenarios.write("notes.txt", "new line\n", { then: "ok" }));
      const file = path.join(setup.cwd, "notes.txt");
      const seen: ApprovalRequest[] = [];
      const session = setup.claude.runStreamed({
        prompt: "write it",
        cwd: setup.cwd,
        approvals: { onRequest: (request) => (seen.push(request), "decline") },
      });
      const events = await collect(session.events);
      expect(events.at(-1)).toMatchObject({ outcome: "completed" });
      expect(seen).toEqual([expect.objectContaining({ kind: "fileChange", paths: [file] })]);
      const request = seen[0] as Extract<ApprovalRequest, { kind: "fileChange" }>;
      expect(request.diff).toContain("+new line");
      expect(existsSync(file)).toBe(false);
      expectApprovalEventOrder(events);
    },
  );
});
