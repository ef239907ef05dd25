/**
 * Codex's server requests that an app may answer, read into the harness-neutral request types, each with the
 * function that turns the app's answer into the reply codex expects. Pure.
 */
import type { ApprovalDecision, UserInputQuestion } from "../../harness/approvals.js";
import type { FileChange } from "../../harness/events.js";
import { asRecord, isRecord } from "../../json-record.js";
import { commandWords, splitWords } from "../../shell-words.js";
import type {
  RoutedApproval,
  RoutedElicitation,
  RoutedRequest,
  RoutedUserInput,
} from "../../session/app-request-broker.js";
import { unifiedDiffOfFiles } from "../../unified-diff.js";
import { isMcpToolCallApproval } from "./approvals.js";
import { codexFileChange } from "./file-change-diffs.js";

type Json = Record<string, unknown>;

const ALL: readonly ApprovalDecision[] = ["accept", "acceptForSession", "decline", "cancel"];
const NEUTRAL = new Set<unknown>(ALL);

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * The decisions a command approval offers: codex's own `availableDecisions` where it sends them (those of the
 * neutral vocabulary), `decline` always (codex takes it whatever it lists); every decision otherwise.
 */
function commandDecisions(params: Json): ApprovalDecision[] {
  const available = params.availableDecisions;
  if (!Array.isArray(available)) return [...ALL];
  const offered = new Set(available.filter((d) => NEUTRAL.has(d)) as ApprovalDecision[]);
  offered.add("decline");
  return ALL.filter((d) => offered.has(d));
}

/**
 * What every approval request carries besides its kind: `itemId` and `reason` from the v2 params unless a kind
 * reads them elsewhere, and the native request.
 */
function approvalFields(
  id: string,
  method: string,
  params: Json,
  decisions: ApprovalDecision[],
  itemId: string | null = str(params.itemId),
  reason: string | null = str(params.reason),
) {
  return { id, harness: "codex" as const, itemId, reason, decisions, native: { method, params } };
}

/** The `{path, kind, diff}` of a v1 `fileChanges` map entry. */
function legacyChange(filePath: string, change: unknown): FileChange {
  const c = asRecord(change);
  const kind = str(c.type) ?? "update";
  return codexFileChange(filePath, kind, str(c.unified_diff) ?? str(c.content));
}

/**
 * The v2 command approval (`item/commandExecution/requestApproval`); its command and cwd from the
 * `commandExecution` item it is about where the request lacks them (codex before 0.100).
 */
function commandApproval(id: string, method: string, params: Json, item: Json | undefined): RoutedApproval {
  const command = str(params.command) ?? str(item?.command) ?? "";
  return {
    type: "approval",
    request: {
      kind: "command",
      ...approvalFields(id, method, params, commandDecisions(params)),
      command,
      argv: commandWords(command),
      cwd: str(params.cwd) ?? str(item?.cwd),
    },
    reply: (decision) => ({ decision }),
  };
}

/** The v2 file-change approval; its paths come from the `fileChange` item codex started before asking. */
function fileChangeApproval(
  id: string,
  method: string,
  params: Json,
  item: Json | undefined,
): RoutedApproval {
  const changes = Array.isArray(item?.changes)
    ? item.changes
        .filter(isRecord)
        .map((c) =>
          codexFileChange(
            str(c.path) ?? "",
            str(c.kind) ?? str(asRecord(c.kind).type) ?? "update",
            str(c.diff),
          ),
        )
    : [];
  return {
    type: "approval",
    request: {
      kind: "fileChange",
      ...approvalFields(id, method, params, [...ALL]),
      paths: changes.map((c) => c.path),
      diff: unifiedDiffOfFiles(changes),
      changes,
      grantRoot: str(params.grantRoot),
    },
    reply: (decision) => ({ decision }),
  };
}

/** `item/permissions/requestApproval`: accept grants what was asked, for the turn or the session. */
function permissionsApproval(id: string, method: string, params: Json): RoutedApproval {
  const permissions = params.permissions ?? {};
  const net = asRecord(params.networkApprovalContext ?? asRecord(permissions).networkApprovalContext);
  const host = str(net.host);
  return {
    type: "approval",
    request: {
      kind: "permissions",
      ...approvalFields(id, method, params, ["accept", "acceptForSession", "decline"]),
      network: host === null ? null : { host, protocol: str(net.protocol) },
      permissions,
      cwd: str(params.cwd),
    },
    reply: (decision) =>
      decision === "accept" || decision === "acceptForSession"
        ? { permissions, scope: decision === "accept" ? "turn" : "session" }
        : { permissions: {}, scope: "turn" },
  };
}

/** An MCP elicitation that is codex asking to approve an MCP tool call. */
function mcpToolCallApproval(id: string, method: string, params: Json): RoutedApproval {
  const meta = asRecord(params._meta);
  return {
    type: "approval",
    request: {
      kind: "mcpToolCall",
      ...approvalFields(id, method, params, ["accept", "decline", "cancel"], null, null),
      server: str(params.serverName) ?? "",
      tool: str(meta.tool_name) ?? str(meta.toolName) ?? str(meta.tool) ?? toolNamedIn(str(params.message)),
      arguments: meta.tool_params ?? meta.arguments ?? null,
      message: str(params.message),
    },
    reply: (decision) => ({
      action: decision === "acceptForSession" ? "accept" : decision,
      content: null,
      _meta: null,
    }),
  };
}

/**
 * The tool an MCP approval's message names, for a codex whose `_meta` does not (0.117–0.150 send only
 * `Allow the <server> MCP server to run tool "<tool>"?`). Pure.
 */
function toolNamedIn(message: string | null): string | null {
  return /\brun tool "([^"]+)"/.exec(message ?? "")?.[1] ?? null;
}

/** v1 `execCommandApproval` / `applyPatchApproval` (ReviewDecision vocabulary). */
function legacyApproval(id: string, method: string, params: Json): RoutedApproval {
  const common = approvalFields(id, method, params, [...ALL], str(params.callId));
  const reply = (decision: ApprovalDecision): unknown => ({ decision: LEGACY_DECISIONS[decision] });
  if (method === "execCommandApproval") {
    const argv = Array.isArray(params.command) ? params.command.map(String) : [];
    const command = argv.join(" ");
    return {
      type: "approval",
      request: { ...common, kind: "command", command, argv: unwrapShell(argv), cwd: str(params.cwd) },
      reply,
    };
  }
  const changes = Object.entries(asRecord(params.fileChanges)).map(([p, c]) => legacyChange(p, c));
  return {
    type: "approval",
    request: {
      ...common,
      kind: "fileChange",
      paths: changes.map((c) => c.path),
      diff: unifiedDiffOfFiles(changes),
      changes,
      grantRoot: str(params.grantRoot),
    },
    reply,
  };
}

const LEGACY_DECISIONS: Record<ApprovalDecision, string> = {
  accept: "approved",
  acceptForSession: "approved_for_session",
  decline: "denied",
  cancel: "abort",
};

/** An argv `[sh, -c, script]` as the script's words; any other argv as is. */
function unwrapShell(argv: string[]): string[] {
  const [shell, flag, script] = argv;
  if (
    argv.length === 3 &&
    shell &&
    flag &&
    /^(?:.*\/)?(?:ba|z|da|k)?sh$/.test(shell) &&
    /^-[a-z]*c$/.test(flag)
  )
    return splitWords(script ?? "");
  return argv;
}

function userInput(id: string, method: string, params: Json): RoutedUserInput {
  const questions: UserInputQuestion[] = (Array.isArray(params.questions) ? params.questions : [])
    .filter(isRecord)
    .map((q) => ({
      id: str(q.id) ?? "",
      header: str(q.header) ?? "",
      question: str(q.question) ?? "",
      options: Array.isArray(q.options)
        ? q.options.filter(isRecord).map((o) => ({
            label: str(o.label) ?? "",
            description: str(o.description) ?? "",
          }))
        : null,
      isOther: q.isOther === true,
      isSecret: q.isSecret === true,
    }));
  return {
    type: "userInput",
    request: { id, itemId: str(params.itemId), questions, native: { method, params } },
    reply: (answers) => ({
      answers: Object.fromEntries(Object.entries(answers).map(([q, a]) => [q, { answers: a }])),
    }),
  };
}

function elicitation(id: string, method: string, params: Json): RoutedElicitation {
  return {
    type: "elicitation",
    request: {
      id,
      server: str(params.serverName) ?? "",
      message: str(params.message) ?? "",
      mode: str(params.mode) ?? "form",
      schema: params.requestedSchema ?? null,
      url: str(params.url),
      native: { method, params },
    },
    reply: (answer) => ({ action: answer.action, content: answer.content ?? null, _meta: null }),
  };
}

/**
 * The routed form of a codex server request, or null for one no app answers (dynamic tools, auth,
 * attestation, unknown methods). `item` is the `fileChange` item the request is about, when started.
 */
export function routeCodexRequest(
  method: string,
  requestId: number | string,
  params: unknown,
  item?: Json,
): RoutedRequest | null {
  const id = String(requestId);
  const p = asRecord(params);
  switch (method) {
    case "item/commandExecution/requestApproval":
      return commandApproval(id, method, p, item);
    case "item/fileChange/requestApproval":
      return fileChangeApproval(id, method, p, item);
    case "item/permissions/requestApproval":
      return permissionsApproval(id, method, p);
    case "execCommandApproval":
    case "applyPatchApproval":
      return legacyApproval(id, method, p);
    case "item/tool/requestUserInput":
      return userInput(id, method, p);
    case "mcpServer/elicitation/request":
      return isMcpToolCallApproval(params) ? mcpToolCallApproval(id, method, p) : elicitation(id, method, p);
    default:
      return null;
  }
}
