/**
 * With `approvals`, each valid call of an app tool is asked about (kind `appTool`) before its handler runs, and
 * the audit events record it, on both harnesses (fake peers): `accept` runs it, `acceptForSession` runs it and
 * the tool's later calls without asking, `decline` answers the agent with
 * a tool error and never runs the handler, `cancel` also cancels the turn, an invalid call is not asked about,
 * and without `approvals` nothing is asked.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../../src/harness/approvals.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { ofType } from "../helpers/collect.js";

function lookupTool(calls: string[]) {
  return defineTool({
    name: "lookup",
    description: "Look up a ticket by id",
    inputSchema: { type: "object", properties: { ticket: { type: "string" } }, required: ["ticket"] },
    handler: ({ ticket }) => (calls.push(ticket), `title of ${ticket}`),
  });
}

/** A codex turn whose agent calls `lookup` with each of `args` in turn. */
function codexSession(
  tools: ReturnType<typeof lookupTool>[],
  args: Record<string, unknown>[],
  approvals?: ApprovalOptions,
) {
  const [started, ...rest] = fakeSteps.textTurn("done");
  const calls: FakeStep[] = args.flatMap((a, i) => fakeSteps.appToolCall(i, "lookup", a));
  const fake = new InMemoryAppServer({ turn: [started!, ...calls, ...rest] });
  return createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    tools,
    timeouts: { turnMs: 5_000 },
    ...(approvals ? { approvals } : {}),
  });
}

/** A Claude Code turn (its in-process server registered without a handshake) that calls `lookup`. */
function claudeSession(
  tools: ReturnType<typeof lookupTool>[],
  args: Record<string, unknown>[],
  approvals?: ApprovalOptions,
) {
  const fake = new InMemoryClaude({
    turn: [
      claudeSteps.init(),
      ...args.flatMap((a, i) =>
        claudeSteps.mcpToolCall(`toolu_${i}`, "lookup", a, { messageId: `msg_${i}` }),
      ),
      ...claudeSteps.text("done", { messageId: "msg_end" }),
      claudeSteps.result({ result: "done" }),
    ],
  });
  const env = { IS_SANDBOX: "1", PATH: process.env.PATH };
  return createClaudeCode({ launcher: fake.launcher, env, interruptGraceMs: 500 }).runStreamed({
    prompt: "hi",
    tools,
    ...(approvals ? { approvals } : {}),
  });
}

async function drain(session: HarnessSession): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return events;
}

function appCompleted(events: HarnessEvent[]) {
  return ofType(events, "tool.completed").filter((e) => e.tool === "app");
}

const HARNESSES = [
  ["codex", codexSession],
  ["claude-code", claudeSession],
] as const;

describe.each(HARNESSES)("app tool calls asked about with approvals (%s)", (harness, session) => {
  it.each([
    ["accept", ["T-1"], "completed", null],
    ["decline", [], "failed", "the app declined this call"],
  ] as const)(
    "%s: the handler runs only when accepted; the audit events record it",
    async (decision, ran, status, error) => {
      const calls: string[] = [];
      const asked: ApprovalRequest[] = [];
      const onRequest = (request: ApprovalRequest): ApprovalDecision => (asked.push(request), decision);
      const events = await drain(session([lookupTool(calls)], [{ ticket: "T-1" }], { onRequest }));
      expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "completed" });
      expect(calls).toEqual(ran);
      expect(asked).toEqual([
        expect.objectContaining({
          kind: "appTool",
          harness,
          tool: "lookup",
          arguments: { ticket: "T-1" },
          decisions: ["accept", "acceptForSession", "decline", "cancel"],
        }),
      ]);
      const requested = ofType(events, "approval.requested");
      expect(requested.map((e) => e.request.kind)).toEqual(["appTool"]);
      expect(ofType(events, "approval.resolved")).toEqual([
        expect.objectContaining({ kind: "appTool", decision, decidedBy: "handler", requestId: asked[0]?.id }),
      ]);
      expect(appCompleted(events)).toEqual([
        expect.objectContaining({ status, app: expect.objectContaining({ error }) }),
      ]);
      // the request comes after the call's tool.started and is resolved before its tool.completed
      const index = (e: HarnessEvent | undefined) => events.indexOf(e!);
      const started = ofType(events, "tool.started").find((e) => e.tool === "app");
      expect(index(started)).toBeLessThan(index(requested[0]));
      expect(index(ofType(events, "approval.resolved")[0])).toBeLessThan(index(appCompleted(events)[0]));
    },
  );

  it("acceptForSession: the call runs, and the same tool's later calls run without asking", async () => {
    const calls: string[] = [];
    const asked: ApprovalRequest[] = [];
    const onRequest = (request: ApprovalRequest): ApprovalDecision => (
      asked.push(request),
      "acceptForSession"
    );
    const events = await drain(
      session([lookupTool(calls)], [{ ticket: "T-1" }, { ticket: "T-2" }, { ticket: "T-3" }], { onRequest }),
    );
    expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "completed" });
    expect(calls).toEqual(["T-1", "T-2", "T-3"]);
    expect(asked.map((request) => request.kind === "appTool" && request.arguments)).toEqual([
      { ticket: "T-1" },
    ]);
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ kind: "appTool", decision: "acceptForSession", decidedBy: "handler" }),
    ]);
    expect(appCompleted(events).map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
  });

  it("cancel: the handler does not run and the turn ends cancelled by the app", async () => {
    const calls: string[] = [];
    const events = await drain(
      session([lookupTool(calls)], [{ ticket: "T-1" }], { onRequest: () => "cancel" }),
    );
    expect(calls).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "cancelled" });
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ kind: "appTool", decision: "cancel", decidedBy: "handler" }),
    ]);
    expect(ofType(events, "terminal")).toHaveLength(1);
  });

  it("an invalid call is answered as a tool error without asking; without approvals nothing is asked", async () => {
    const asked: ApprovalRequest[] = [];
    const calls: string[] = [];
    const onRequest = (request: ApprovalRequest): ApprovalDecision => (asked.push(request), "accept");
    const invalid = await drain(session([lookupTool(calls)], [{ ticket: 42 }], { onRequest }));
    expect(asked).toEqual([]);
    expect(appCompleted(invalid)[0]?.app?.error).toMatch(/^invalid arguments for lookup/);
    const unasked = await drain(session([lookupTool(calls)], [{ ticket: "T-2" }]));
    expect(calls).toEqual(["T-2"]);
    expect(ofType(unasked, "approval.requested")).toEqual([]);
  });
});
