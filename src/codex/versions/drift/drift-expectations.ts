/**
 * What Rennet sends to `codex app-server` or relies on in what it reads, as checks against the binary's
 * generated JSON schema. `optional` marks what Rennet can do without (it falls back by version, see
 * capabilities.ts): its absence is reported but is not drift.
 */

/** The method unions of the schema bundle. */
export type MethodUnion = "ClientRequest" | "ServerNotification" | "ServerRequest";

/** A step into a params shape: a property name, or `[]` for an array's items. */
export type SchemaPath = readonly string[];

export type DriftExpectation =
  | { kind: "method"; union: MethodUnion; method: string; optional?: boolean }
  | { kind: "field"; union: MethodUnion; method: string; path: SchemaPath; optional?: boolean }
  | {
      kind: "value";
      union: MethodUnion;
      method: string;
      path: SchemaPath;
      value: string;
      /** The value is a tagged-union variant (`type` tag), not an enum member. */
      tagged?: boolean;
      optional?: boolean;
    }
  | { kind: "typeField"; type: string; field: string; optional?: boolean };

const request = (method: string, optional?: boolean): DriftExpectation => ({
  kind: "method",
  union: "ClientRequest",
  method,
  ...(optional ? { optional } : {}),
});
const notification = (method: string, optional?: boolean): DriftExpectation => ({
  kind: "method",
  union: "ServerNotification",
  method,
  ...(optional ? { optional } : {}),
});
const fields = (
  union: MethodUnion,
  method: string,
  names: string[],
  optional?: boolean,
): DriftExpectation[] =>
  names.map((name) => ({ kind: "field", union, method, path: [name], ...(optional ? { optional } : {}) }));
const value = (
  union: MethodUnion,
  method: string,
  path: SchemaPath,
  item: string,
  tagged = false,
): DriftExpectation => ({ kind: "value", union, method, path, value: item, ...(tagged ? { tagged } : {}) });

/** The table. */
export const DRIFT_EXPECTATIONS: readonly DriftExpectation[] = [
  // sent: the handshake and one turn
  request("initialize"),
  ...fields("ClientRequest", "initialize", ["clientInfo"]),
  request("thread/start"),
  ...fields("ClientRequest", "thread/start", [
    "cwd",
    "approvalPolicy",
    "sandbox",
    "ephemeral",
    "model",
    "config",
  ]),
  value("ClientRequest", "thread/start", ["approvalPolicy"], "never"),
  value("ClientRequest", "thread/start", ["sandbox"], "danger-full-access"),
  value("ClientRequest", "thread/start", ["sandbox"], "read-only"),
  request("turn/start"),
  ...fields("ClientRequest", "turn/start", [
    "threadId",
    "input",
    "cwd",
    "approvalPolicy",
    "sandboxPolicy",
    "model",
  ]),
  ...fields("ClientRequest", "turn/start", ["outputSchema", "effort"]),
  value("ClientRequest", "turn/start", ["approvalPolicy"], "never"),
  value("ClientRequest", "turn/start", ["sandboxPolicy"], "dangerFullAccess", true),
  value("ClientRequest", "turn/start", ["input", "[]"], "text", true),
  request("turn/interrupt"),
  ...fields("ClientRequest", "turn/interrupt", ["threadId", "turnId"]),
  // sent by the MCP isolation control
  request("config/read"),
  ...fields("ClientRequest", "config/read", ["includeLayers", "cwd"]),
  request("mcpServerStatus/list", true),
  ...fields("ClientRequest", "mcpServerStatus/list", ["threadId"], true),
  { kind: "typeField", type: "McpServerStatus", field: "runtimeStatus", optional: true },
  // read: the notifications the event mapper gives meaning
  notification("turn/started"),
  notification("turn/completed"),
  ...fields("ServerNotification", "turn/completed", ["turn"]),
  value("ServerNotification", "turn/completed", ["turn", "status"], "completed"),
  value("ServerNotification", "turn/completed", ["turn", "status"], "interrupted"),
  value("ServerNotification", "turn/completed", ["turn", "status"], "failed"),
  notification("item/started"),
  notification("item/completed"),
  ...["agentMessage", "reasoning", "commandExecution", "fileChange", "mcpToolCall"].map((tag) =>
    value("ServerNotification", "item/completed", ["item"], tag, true),
  ),
  notification("item/agentMessage/delta"),
  ...fields("ServerNotification", "item/agentMessage/delta", ["itemId", "delta"]),
  notification("item/reasoning/summaryTextDelta"),
  notification("item/reasoning/textDelta"),
  notification("item/commandExecution/outputDelta"),
  notification("item/fileChange/outputDelta"),
  notification("item/mcpToolCall/progress", true),
  notification("thread/tokenUsage/updated"),
  ...fields("ServerNotification", "thread/tokenUsage/updated", ["tokenUsage"]),
  notification("error"),
  notification("warning", true),
  notification("configWarning", true),
  notification("mcpServer/startupStatus/updated", true),
  // answered: the approvals Rennet accepts (codex may ask any of them)
  { kind: "method", union: "ServerRequest", method: "item/commandExecution/requestApproval", optional: true },
  { kind: "method", union: "ServerRequest", method: "item/fileChange/requestApproval", optional: true },
];
