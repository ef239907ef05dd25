/**
 * App tool calls on the real codex with `approvals`, offline: the app's handler is asked about the call (kind
 * `appTool`) before the tool's handler runs; accepted, the answer reaches the model; declined, the model reads
 * the tool error and the tool's handler never runs. Either way the audit events record the decision.
 */
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { ApprovalDecision, ApprovalRequest } from "../../src/harness/approvals.js";
import { appToolCall, functionCallOutputs } from "../../src/testkit/model-scenarios.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { collect, ofType } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const capabilities = codexCapabilities(testCodexVersion());

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

describe.runIf(capabilities.dynamicTools || capabilities.appToolsOverMcp)(
  "real codex: app tool approvals",
  () => {
    it.each([
      ["accept", ["T-42"], '"title":"Fix the flaky test"'],
      ["decline", [], "Error: the app declined this call"],
    ] as const)("%s: the model reads the tool's answer or the refusal", async (decision, ran, sent) => {
      const calls: string[] = [];
      const lookup = defineTool({
        name: "lookup_ticket",
        description: "Look up a ticket",
        inputSchema: { type: "object", properties: { ticket: { type: "string" } }, required: ["ticket"] },
        handler: ({ ticket }) => (calls.push(ticket), { ticket, title: "Fix the flaky test" }),
      });
      const asked: ApprovalRequest[] = [];
      fixture = await startRealCodex(appToolCall("lookup_ticket", { ticket: "T-42" }, { then: "done" }));
      const session = fixture.client.runStreamed({
        prompt: "look up T-42",
        cwd: fixture.cwd,
        tools: [lookup],
        approvals: { onRequest: (request): ApprovalDecision => (asked.push(request), decision) },
      });
      const { events, terminal } = await collect(session);
      expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "done" });
      expect(calls).toEqual(ran);
      expect(asked).toEqual([
        expect.objectContaining({
          kind: "appTool",
          harness: "codex",
          tool: "lookup_ticket",
          arguments: { ticket: "T-42" },
        }),
      ]);
      expect(ofType(events, "approval.resolved")).toEqual([
        expect.objectContaining({ kind: "appTool", decision, decidedBy: "handler" }),
      ]);
      const output = functionCallOutputs(fixture.model.responsesRequests().at(-1))[0]?.output ?? "";
      expect(output.replace(/\\"/g, '"')).toContain(sent);
    });
  },
);
