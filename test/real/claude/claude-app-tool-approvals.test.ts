/**
 * App tool calls on the real claude with `approvals`, offline: Claude's own permission prompt for the app's
 * tool is allowed by Rennet (the app defined the tool), and the app's handler is asked about the call (kind
 * `appTool`) before the tool's handler runs; declined, the model reads the tool error (`is_error`) and the
 * tool's handler never runs. The audit events record each decision.
 */
import { afterEach, describe, expect, it, type TestContext } from "vitest";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/harness/approvals.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { defineTool } from "../../../src/tools/define-tool.js";
import { ClaudeSetups, collect, ofType, claudeUnderTest } from "./claude-helpers.js";

const setups = new ClaudeSetups();
const claude = claudeUnderTest();
afterEach(() => setups.dispose());

describe("real claude: app tool approvals", () => {
  it.for([
    ["accept", ["T-42"], false],
    ["decline", [], true],
  ] as const)(
    "%s (a release that prompts the host): the model reads the answer or the refusal",
    async ([decision, ran, isError], context: TestContext) => {
      if (!claude.capabilities().hostPermissionPrompts) context.skip();
      const calls: string[] = [];
      const lookup = defineTool({
        name: "lookup_ticket",
        description: "Look up a ticket",
        inputSchema: { type: "object", properties: { ticket: { type: "string" } }, required: ["ticket"] },
        handler: ({ ticket }) => (calls.push(ticket), `title of ${ticket}`),
      });
      const asked: ApprovalRequest[] = [];
      const s = await setups.create(scenarios.appTool("lookup_ticket", { ticket: "T-42" }, { then: "done" }));
      const session = s.claude.runStreamed({
        prompt: "look up T-42",
        cwd: s.cwd,
        env: s.callEnv,
        tools: [lookup],
        approvals: { onRequest: (request): ApprovalDecision => (asked.push(request), decision) },
      });
      const events = await collect(session.events);
      const terminal = await session.result;
      expect(terminal, JSON.stringify(terminal.failure)).toMatchObject({
        outcome: "completed",
        finalMessage: "done",
      });
      expect(calls).toEqual(ran);
      expect(asked).toEqual([
        expect.objectContaining({ kind: "appTool", harness: "claude-code", tool: "lookup_ticket" }),
      ]);
      expect(ofType(events, "approval.resolved")).toEqual([
        expect.objectContaining({ kind: "appTool", decision, decidedBy: "handler" }),
      ]);
      const callId = asked[0]?.itemId;
      const results = s.model.messagesRequests().flatMap((r) => scenarios.toolResults(r));
      expect(results.filter((r) => r.toolUseId === callId)).toEqual([
        expect.objectContaining({
          isError,
          text: isError ? expect.stringContaining("Error: the app declined this call") : "title of T-42",
        }),
      ]);
    },
  );
});
