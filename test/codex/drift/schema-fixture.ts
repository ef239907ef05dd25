/**
 * A small schema bundle shaped like `codex app-server generate-json-schema`'s
 * (`definitions` + `definitions.v2`, `$ref`s, method unions of `{method: {enum: [name]}, params}` objects),
 * holding what Rennet relies on. `change` edits it for the drift cases.
 */
type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/definitions/v2/${name}` });
const obj = (properties: Record<string, unknown>): Json => ({ type: "object", properties });
const str: Json = { type: "string" };
const tagged = (...tags: string[]): Json => ({
  oneOf: tags.map((tag) => obj({ type: { type: "string", enum: [tag] } })),
});
const nullable = (node: Json): Json => ({ anyOf: [node, { type: "null" }] });

export interface FixtureChange {
  /** Methods left out of every union. */
  dropMethods?: string[];
  /** `Type.field` properties left out. */
  dropFields?: string[];
  /** Replaces the thread/start sandbox enum. */
  sandboxValues?: string[];
  /** Extra server notifications (params `{}`). */
  extraNotifications?: string[];
}

export function fixtureBundle(change: FixtureChange = {}): Json {
  const drop = new Set(change.dropMethods ?? []);
  const dropFields = new Set(change.dropFields ?? []);
  const type = (name: string, properties: Record<string, unknown>): Json =>
    obj(
      Object.fromEntries(Object.entries(properties).filter(([field]) => !dropFields.has(`${name}.${field}`))),
    );
  const union = (entries: Array<[string, Json]>): Json => ({
    oneOf: entries
      .filter(([method]) => !drop.has(method))
      .map(([method, params]) => obj({ method: { type: "string", enum: [method] }, params, id: str })),
  });
  const v2: Record<string, Json> = {
    AskForApproval: { type: "string", enum: ["untrusted", "on-failure", "on-request", "never"] },
    SandboxMode: {
      type: "string",
      enum: change.sandboxValues ?? ["read-only", "workspace-write", "danger-full-access"],
    },
    ThreadStartParams: type("ThreadStartParams", {
      cwd: nullable(str),
      approvalPolicy: nullable(ref("AskForApproval")),
      sandbox: nullable(ref("SandboxMode")),
      ephemeral: { type: ["boolean", "null"] },
      model: nullable(str),
      config: { type: ["object", "null"] },
    }),
    SandboxPolicy: tagged("dangerFullAccess", "readOnly", "workspaceWrite"),
    UserInput: tagged("text", "image", "localImage"),
    TurnStartParams: type("TurnStartParams", {
      threadId: str,
      input: { type: "array", items: ref("UserInput") },
      cwd: nullable(str),
      approvalPolicy: nullable(ref("AskForApproval")),
      sandboxPolicy: nullable(ref("SandboxPolicy")),
      model: nullable(str),
      outputSchema: {},
      effort: nullable(str),
    }),
    TurnInterruptParams: type("TurnInterruptParams", { threadId: str, turnId: str }),
    ConfigReadParams: type("ConfigReadParams", { includeLayers: { type: "boolean" }, cwd: nullable(str) }),
    ListMcpServerStatusParams: type("ListMcpServerStatusParams", {
      threadId: nullable(str),
      cursor: nullable(str),
    }),
    McpServerStatus: type("McpServerStatus", { name: str, tools: {}, runtimeStatus: nullable(str) }),
    Turn: type("Turn", { id: str, status: ref("TurnStatus") }),
    TurnStatus: { type: "string", enum: ["completed", "interrupted", "failed", "inProgress"] },
    TurnCompletedNotification: type("TurnCompletedNotification", { threadId: str, turn: ref("Turn") }),
    ThreadItem: tagged(
      "userMessage",
      "agentMessage",
      "reasoning",
      "commandExecution",
      "fileChange",
      "mcpToolCall",
    ),
    ItemNotification: type("ItemNotification", { threadId: str, item: ref("ThreadItem") }),
    AgentMessageDeltaNotification: type("AgentMessageDeltaNotification", { itemId: str, delta: str }),
    TokenUsageNotification: type("TokenUsageNotification", { tokenUsage: {} }),
  };
  const notifications: Array<[string, Json]> = [
    ["turn/started", obj({})],
    ["turn/completed", ref("TurnCompletedNotification")],
    ["item/started", ref("ItemNotification")],
    ["item/completed", ref("ItemNotification")],
    ["item/agentMessage/delta", ref("AgentMessageDeltaNotification")],
    ["item/reasoning/summaryTextDelta", obj({})],
    ["item/reasoning/textDelta", obj({})],
    ["item/commandExecution/outputDelta", obj({})],
    ["item/fileChange/outputDelta", obj({})],
    ["item/mcpToolCall/progress", obj({})],
    ["thread/tokenUsage/updated", ref("TokenUsageNotification")],
    ["error", obj({})],
    ["warning", obj({})],
    ["configWarning", obj({})],
    ["mcpServer/startupStatus/updated", obj({})],
    ...(change.extraNotifications ?? []).map((method): [string, Json] => [method, obj({})]),
  ];
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    definitions: {
      InitializeParams: type("InitializeParams", { clientInfo: obj({ name: str }) }),
      ClientRequest: union([
        ["initialize", { $ref: "#/definitions/InitializeParams" }],
        ["thread/start", ref("ThreadStartParams")],
        ["turn/start", ref("TurnStartParams")],
        ["turn/interrupt", ref("TurnInterruptParams")],
        ["config/read", ref("ConfigReadParams")],
        ["mcpServerStatus/list", ref("ListMcpServerStatusParams")],
      ]),
      ServerNotification: union(notifications),
      ServerRequest: union([
        ["item/commandExecution/requestApproval", obj({})],
        ["item/fileChange/requestApproval", obj({})],
      ]),
      v2,
    },
  };
}
