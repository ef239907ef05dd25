import { describe, expect, it } from "vitest";
import {
  answerServerRequest,
  isMcpToolCallApproval,
  METHOD_NOT_FOUND,
  REQUEST_REFUSED,
} from "../../src/internal/test-hooks.js";

describe("answerServerRequest", () => {
  it.each(["item/commandExecution/requestApproval", "item/fileChange/requestApproval"])(
    "accepts %s",
    (method) => {
      expect(answerServerRequest(method, { itemId: "x", threadId: "t", turnId: "u" })).toEqual({
        type: "result",
        result: { decision: "accept" },
      });
    },
  );

  it("grants an empty permission profile for this turn only", () => {
    expect(
      answerServerRequest("item/permissions/requestApproval", {
        permissions: { network: { enabled: true } },
      }),
    ).toEqual({
      type: "result",
      result: { permissions: {}, scope: "turn" },
    });
  });

  it.each(["execCommandApproval", "applyPatchApproval"])(
    "approves legacy %s with the v1 vocabulary",
    (method) => {
      expect(answerServerRequest(method, {})).toEqual({ type: "result", result: { decision: "approved" } });
    },
  );

  it("answers a user-input request with empty answers", () => {
    expect(
      answerServerRequest("item/tool/requestUserInput", { questions: [{ id: "q1", question: "Which?" }] }),
    ).toEqual({
      type: "result",
      result: { answers: {} },
    });
  });

  it("accepts an MCP elicitation that is a tool-call approval", () => {
    const params = {
      serverName: "docs",
      message: "Allow docs.search?",
      _meta: { codex_approval_kind: "mcp_tool_call", tool: "search" },
    };
    expect(answerServerRequest("mcpServer/elicitation/request", params)).toEqual({
      type: "result",
      result: { action: "accept", content: null, _meta: null },
    });
  });

  it.each([
    [
      "a form elicitation",
      { serverName: "docs", message: "Your email?", requestedSchema: { type: "object" } },
    ],
    ["another approval kind", { _meta: { codex_approval_kind: "something_else" } }],
    ["a _meta that is not an object", { _meta: "mcp_tool_call" }],
    ["no params", undefined],
  ])("declines %s", (_label, params) => {
    expect(answerServerRequest("mcpServer/elicitation/request", params)).toEqual({
      type: "result",
      result: { action: "decline", content: null, _meta: null },
    });
  });

  it.each(["item/tool/call", "account/chatgptAuthTokens/refresh", "attestation/generate"])(
    "refuses %s with a JSON-RPC method error that explains why",
    (method) => {
      const reply = answerServerRequest(method, {});
      expect(reply).toEqual({ type: "error", code: REQUEST_REFUSED, message: expect.any(String) });
      if (reply.type === "error") expect(reply.message.length).toBeGreaterThan(10);
    },
  );

  it("never serves credentials: the token refresh error says to sign in with codex", () => {
    const reply = answerServerRequest("account/chatgptAuthTokens/refresh", { reason: "unauthorized" });
    expect(reply).toMatchObject({ type: "error", message: expect.stringMatching(/codex/) });
    expect(reply).not.toHaveProperty("result");
  });

  it.each(["some/futureRequest", "", "item/commandExecution/requestApprovalV2"])(
    "answers an unknown method %j with -32601",
    (method) => {
      expect(answerServerRequest(method, {})).toEqual({
        type: "error",
        code: METHOD_NOT_FOUND,
        message: `method not found: ${method}`,
      });
      expect(METHOD_NOT_FOUND).toBe(-32601);
    },
  );
});

describe("isMcpToolCallApproval", () => {
  it("is true only for _meta.codex_approval_kind === mcp_tool_call", () => {
    expect(isMcpToolCallApproval({ _meta: { codex_approval_kind: "mcp_tool_call" } })).toBe(true);
    expect(isMcpToolCallApproval({ _meta: { codex_approval_kind: "other" } })).toBe(false);
    expect(isMcpToolCallApproval({ codex_approval_kind: "mcp_tool_call" })).toBe(false);
    expect(isMcpToolCallApproval(null)).toBe(false);
    expect(isMcpToolCallApproval([])).toBe(false);
  });
});
