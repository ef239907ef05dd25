/**
 * Builders for the server requests a fake app-server sends to the client: approval requests, questions and
 * MCP elicitations, each as codex 0.171 shapes it. Pair each with `{ awaitReply: id }` to wait for the answer
 * (the reply is in `peer.received`). Pure.
 */
/** A step that writes one frame (the `FakeSend` of a script). */
type FakeSend = { send: Record<string, unknown> };

const IDS = { threadId: "0199f0fa-4e00-7000-8000-000000000001", turnId: "turn_fake_0001" };

function request(id: number | string, method: string, params: Record<string, unknown>): FakeSend {
  return { send: { id, method, params: { ...IDS, ...params } } };
}

export const fakeRequestSteps = {
  /** `item/commandExecution/requestApproval` for `command` (as codex shows it, e.g. `/bin/bash -c 'ls'`). */
  commandApproval(
    id: number | string,
    options: {
      command: string;
      cwd?: string;
      itemId?: string;
      reason?: string;
      availableDecisions?: unknown[];
    },
  ): FakeSend {
    return request(id, "item/commandExecution/requestApproval", {
      kind: "command",
      itemId: options.itemId ?? `call_${id}`,
      startedAtMs: 0,
      environmentId: "local",
      command: options.command,
      cwd: options.cwd ?? "/tmp",
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.availableDecisions !== undefined ? { availableDecisions: options.availableDecisions } : {}),
    });
  },

  /** `item/fileChange/requestApproval`; send the `fileChange` item (`fakeSteps.item`) first for its paths. */
  fileChangeApproval(
    id: number | string,
    options: { itemId: string; reason?: string; grantRoot?: string },
  ): FakeSend {
    return request(id, "item/fileChange/requestApproval", {
      itemId: options.itemId,
      startedAtMs: 0,
      reason: options.reason ?? null,
      grantRoot: options.grantRoot ?? null,
    });
  },

  /** `item/permissions/requestApproval` asking for network access (or the given profile). */
  permissionsApproval(
    id: number | string,
    options: { reason?: string; permissions?: Record<string, unknown>; cwd?: string } = {},
  ): FakeSend {
    return request(id, "item/permissions/requestApproval", {
      itemId: `perm_${id}`,
      environmentId: "local",
      startedAtMs: 0,
      cwd: options.cwd ?? "/tmp",
      reason: options.reason ?? null,
      permissions: options.permissions ?? { network: { enabled: true }, fileSystem: null },
    });
  },

  /** An MCP tool-call approval: `mcpServer/elicitation/request` with `_meta.codex_approval_kind`. */
  mcpToolCallApproval(
    id: number | string,
    options: { server: string; tool: string; arguments?: unknown; message?: string },
  ): FakeSend {
    return request(id, "mcpServer/elicitation/request", {
      serverName: options.server,
      environmentId: null,
      mode: "form",
      message: options.message ?? `Allow ${options.server}.${options.tool}?`,
      requestedSchema: { type: "object", properties: {} },
      _meta: {
        codex_approval_kind: "mcp_tool_call",
        tool_name: options.tool,
        tool_params: options.arguments ?? {},
      },
    });
  },

  /** `item/tool/requestUserInput` with these questions (`options` null for free text). */
  userInput(
    id: number | string,
    questions: { id: string; question: string; header?: string; options?: string[] }[],
  ): FakeSend {
    return request(id, "item/tool/requestUserInput", {
      itemId: `input_${id}`,
      isBlocking: true,
      autoResolutionMs: null,
      questions: questions.map((q) => ({
        id: q.id,
        header: q.header ?? "",
        question: q.question,
        isOther: q.options === undefined,
        isSecret: false,
        options: q.options?.map((label) => ({ label, description: "" })) ?? null,
      })),
    });
  },

  /** An MCP server's form elicitation (`mcpServer/elicitation/request`, mode `form`). */
  elicitation(
    id: number | string,
    options: { server: string; message: string; schema?: Record<string, unknown> },
  ): FakeSend {
    return request(id, "mcpServer/elicitation/request", {
      serverName: options.server,
      environmentId: null,
      mode: "form",
      message: options.message,
      requestedSchema: options.schema ?? { type: "object", properties: {} },
      _meta: null,
    });
  },
};
