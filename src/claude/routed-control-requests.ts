/**
 * Claude Code's control requests that an app may answer, read into the harness-neutral request types, each with
 * the function that turns the app's answer into the `control_response` body Claude expects. Pure.
 *
 * | request | routed as |
 * |---|---|
 * | `can_use_tool` Bash / PowerShell | `command` (the command, its words, the session's cwd) |
 * | `can_use_tool` Edit / MultiEdit / Write / NotebookEdit | `fileChange` (the path, the proposed change as a diff) |
 * | `can_use_tool` `mcp__<server>__<tool>` | `mcpToolCall` |
 * | `can_use_tool` WebFetch | `permissions` (network access to the URL's host) |
 * | `can_use_tool` AskUserQuestion | a question (`onUserInput`), keyed by the question's text |
 * | `can_use_tool` any other tool | `tool` (its name and input) |
 * | `elicitation` | an MCP elicitation (`onElicitation`) |
 */
import type { ApprovalDecision, ApprovalRequest, FileChange } from "../harness/approvals.js";
import { asRecord, isRecord } from "../json-record.js";
import type { RoutedApproval, RoutedRequest } from "../session/app-request-broker.js";
import { commandWords } from "../shell-words.js";
import { claudeToolTitle, mcpToolName } from "./tool-kinds.js";

type Json = Record<string, unknown>;

const ALL: readonly ApprovalDecision[] = ["accept", "acceptForSession", "decline", "cancel"];

/** What the model is told when the app declines a tool call (Claude adds it as the tool's error result). */
const DECLINED_MESSAGE = "The user declined this tool call. Do not retry it; continue without it.";
/** What the model is told when the app cancels the turn at a tool call (Claude then ends the turn). */
const CANCELLED_MESSAGE = "The user cancelled the turn.";
/** What the model is told when nobody answered its questions. */
const UNANSWERED_MESSAGE = "The user did not answer these questions; continue without the answers.";

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The permission updates of `acceptForSession`: Claude's own suggestions (rules, a mode, directories) with every
 * destination forced to `session`, so that nothing is ever written to a settings file (a `localSettings`
 * suggestion echoed back makes Claude write the repository's `.claude/settings.local.json`); a rule for the
 * tool (a Bash rule for exactly this command) when Claude suggested none.
 */
function sessionPermissions(toolName: string, input: Json, suggestions: unknown): Json[] {
  const kept = (Array.isArray(suggestions) ? suggestions : []).filter(isRecord).flatMap((s): Json[] => {
    if (s.type === "addRules" && s.behavior === "allow" && Array.isArray(s.rules))
      return [{ type: "addRules", rules: s.rules, behavior: "allow", destination: "session" }];
    if (s.type === "setMode" && s.mode === "acceptEdits")
      return [{ type: "setMode", mode: "acceptEdits", destination: "session" }];
    if (s.type === "addDirectories" && Array.isArray(s.directories))
      return [{ type: "addDirectories", directories: s.directories, destination: "session" }];
    return [];
  });
  if (kept.length > 0) return kept;
  const command = toolName === "Bash" ? str(input.command) : null;
  const rule = command === null ? { toolName } : { toolName, ruleContent: command };
  return [{ type: "addRules", rules: [rule], behavior: "allow", destination: "session" }];
}

/** The `control_response` body of a decision on a `can_use_tool` request. */
function permissionReply(decision: ApprovalDecision, toolName: string, input: Json, params: Json): Json {
  switch (decision) {
    case "accept":
      return { behavior: "allow", updatedInput: input };
    case "acceptForSession":
      return {
        behavior: "allow",
        updatedInput: input,
        updatedPermissions: sessionPermissions(toolName, input, params.permission_suggestions),
      };
    case "decline":
      return { behavior: "deny", message: DECLINED_MESSAGE };
    case "cancel":
      return { behavior: "deny", message: CANCELLED_MESSAGE, interrupt: true };
  }
}

/** The change an editing tool proposes, as a unified diff of its old and new text (no line numbers). */
function proposedChange(toolName: string, input: Json): FileChange {
  const path = str(input.file_path) ?? str(input.notebook_path) ?? "";
  const lines = (text: string, sign: string): string[] =>
    text === "" ? [] : text.split("\n").map((line) => `${sign}${line}`);
  const hunk = (oldText: string, newText: string): string =>
    ["@@ @@", ...lines(oldText, "-"), ...lines(newText, "+")].join("\n");
  const header = `--- a/${path}\n+++ b/${path}\n`;
  if (toolName === "Write")
    return {
      path,
      kind: "add",
      diff: `--- /dev/null\n+++ b/${path}\n${hunk("", String(input.content ?? ""))}`,
    };
  const edits =
    toolName === "MultiEdit" && Array.isArray(input.edits) ? input.edits.filter(isRecord) : [input];
  const hunks = edits.map((e) =>
    hunk(String(e.old_string ?? e.old_source ?? ""), String(e.new_string ?? e.new_source ?? "")),
  );
  return { path, kind: "update", diff: header + hunks.join("\n") };
}

/** The neutral form of one `can_use_tool` request (without its reply). */
function permissionRequest(id: string, params: Json, cwd: string | null): ApprovalRequest {
  const toolName = str(params.tool_name) ?? "";
  const input = asRecord(params.input);
  const base = {
    id,
    harness: "claude-code" as const,
    itemId: str(params.tool_use_id),
    reason: str(params.decision_reason) ?? str(params.description) ?? str(params.title),
    decisions: ALL,
    native: { method: "control_request/can_use_tool", params },
  };
  const mcp = mcpToolName(toolName);
  if (toolName === "Bash" || toolName === "PowerShell") {
    const command = str(input.command) ?? "";
    return { ...base, kind: "command", command, argv: commandWords(command), cwd };
  }
  if (["Edit", "MultiEdit", "Write", "NotebookEdit"].includes(toolName)) {
    const change = proposedChange(toolName, input);
    return {
      ...base,
      kind: "fileChange",
      paths: [change.path],
      diff: change.diff,
      changes: [change],
      grantRoot: null,
    };
  }
  if (mcp !== null)
    return {
      ...base,
      kind: "mcpToolCall",
      server: str(asRecord(params.mcp_server).name) ?? mcp.server,
      tool: mcp.tool === "" ? null : mcp.tool,
      arguments: input,
      message: str(params.title) ?? str(params.description),
    };
  const url = toolName === "WebFetch" ? urlOf(input.url) : null;
  if (url !== null)
    return {
      ...base,
      kind: "permissions",
      network: { host: url.host, protocol: url.protocol.replace(/:$/, "") },
      permissions: { tool: toolName, input },
      cwd,
    };
  return { ...base, kind: "tool", tool: toolName, input, title: claudeToolTitle(toolName, input) };
}

function urlOf(value: unknown): URL | null {
  try {
    return typeof value === "string" ? new URL(value) : null;
  } catch {
    return null;
  }
}

/** AskUserQuestion as a question request: each question's id is its text (the key Claude reads answers by). */
function userQuestions(id: string, params: Json): RoutedRequest {
  const input = asRecord(params.input);
  const questions = (Array.isArray(input.questions) ? input.questions : []).filter(isRecord).map((q) => ({
    id: str(q.question) ?? "",
    header: str(q.header) ?? "",
    question: str(q.question) ?? "",
    options: Array.isArray(q.options)
      ? q.options
          .filter(isRecord)
          .map((o) => ({ label: str(o.label) ?? "", description: str(o.description) ?? "" }))
      : null,
    isOther: true,
    isSecret: false,
  }));
  return {
    type: "userInput",
    request: {
      id,
      itemId: str(params.tool_use_id),
      questions,
      native: { method: "control_request/can_use_tool", params },
    },
    reply: (answers) => {
      const given = Object.entries(answers).filter(([, a]) => a.length > 0);
      if (given.length === 0) return { behavior: "deny", message: UNANSWERED_MESSAGE };
      const texts = Object.fromEntries(given.map(([q, a]) => [q, a.join(", ")]));
      return { behavior: "allow", updatedInput: { ...input, answers: texts } };
    },
  };
}

/**
 * The routed form of a control request Claude sent, or null for one no app answers (`mcp_message`,
 * `hook_callback`, unknown subtypes). `cwd` is the session's working directory (a command's cwd).
 */
export function routeClaudeRequest(
  requestId: string,
  params: Json,
  cwd: string | null,
): RoutedRequest | null {
  if (params.subtype === "elicitation")
    return {
      type: "elicitation",
      request: {
        id: requestId,
        server: str(params.mcp_server_name) ?? "",
        message: str(params.message) ?? "",
        mode: str(params.mode) ?? "form",
        schema: params.requested_schema ?? null,
        url: str(params.url),
        native: { method: "control_request/elicitation", params },
      },
      reply: (answer) => ({
        action: answer.action,
        ...(answer.content === undefined ? {} : { content: answer.content }),
      }),
    };
  if (params.subtype !== "can_use_tool") return null;
  if (params.tool_name === "AskUserQuestion") return userQuestions(requestId, params);
  const request = permissionRequest(requestId, params, cwd);
  const toolName = str(params.tool_name) ?? "";
  const input = asRecord(params.input);
  const routed: RoutedApproval = {
    type: "approval",
    request,
    reply: (decision) => permissionReply(decision, toolName, input, params),
  };
  return routed;
}
