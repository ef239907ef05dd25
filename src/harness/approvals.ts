/**
 * The app in the loop, whatever the harness: the approval requests an agent sends, the decisions an app gives,
 * the questions it may answer, and the per-call options that route them to the app. See docs/approvals.md.
 */
import type { HarnessName } from "./event-base.js";

/** One file a file change touches (`file.changed` events list them too). */
export interface FileChange {
  path: string;
  /** `add`, `delete` or `update` (an object form is reduced to its `type`). */
  kind: string;
  /** The change as a unified diff, when the agent sent one. */
  diff: string | null;
}

/**
 * How an app answers an approval request: `accept` (this once), `acceptForSession` (this and the same kind of
 * request for the rest of the session), `decline` (refuse; the agent carries on without it) or `cancel` (refuse
 * and stop the turn). Each request lists in `decisions` which of them its harness takes for it.
 */
export type ApprovalDecision = "accept" | "acceptForSession" | "decline" | "cancel";

/** What every approval request carries. */
interface ApprovalRequestBase {
  /** Unique within the session: the harness's own id of the request, as text. */
  id: string;
  harness: HarnessName;
  /** The tool call (item) the request is about, when the harness names one. */
  itemId: string | null;
  /** Why the agent asks, when it says (e.g. the justification of a request to leave the sandbox). */
  reason: string | null;
  /** The decisions this harness takes for this request; anything else is answered `decline`. */
  decisions: readonly ApprovalDecision[];
  /** The request exactly as the harness sent it (method and params). */
  native: { method: string; params: unknown };
}

/** Run a shell command. */
export interface CommandApprovalRequest extends ApprovalRequestBase {
  kind: "command";
  /** The command line as the agent will run it. */
  command: string;
  /** The command as words (split the way a POSIX shell would; the shell wrapper, e.g. `bash -c`, removed). */
  argv: string[];
  /** The working directory it will run in, when known. */
  cwd: string | null;
}

/** Write, create or delete files. */
export interface FileChangeApprovalRequest extends ApprovalRequestBase {
  kind: "fileChange";
  /** The paths the change touches (empty when the harness did not say). */
  paths: string[];
  /** The change as a unified diff, when known. */
  diff: string | null;
  changes: FileChange[];
  /** A directory the agent asks to write under for the rest of the session, when it asks for one. */
  grantRoot: string | null;
}

/** Extra permissions: network access to a host, file-system access beyond the sandbox. */
export interface PermissionsApprovalRequest extends ApprovalRequestBase {
  kind: "permissions";
  /** The host the agent wants to reach, when the request is about the network. */
  network: { host: string; protocol: string | null } | null;
  /** The permissions asked for, as the harness described them. */
  permissions: unknown;
  cwd: string | null;
}

/** Call a tool of an MCP server. */
export interface McpToolCallApprovalRequest extends ApprovalRequestBase {
  kind: "mcpToolCall";
  server: string;
  /** The tool's name, when the harness said it. */
  tool: string | null;
  /** The call's arguments, when the harness said them. */
  arguments: unknown;
  /** The text the harness would show a person. */
  message: string | null;
}

/**
 * Any other tool call the agent asks about (Claude Code: a Read outside the allowed directories, a web search, a
 * subagent, …): the tool's name and input as the agent sent them.
 */
export interface ToolApprovalRequest extends ApprovalRequestBase {
  kind: "tool";
  /** The tool's name as the agent calls it. */
  tool: string;
  input: unknown;
  /** A short human-readable title: the file, the URL, the query, or the tool's name. */
  title: string;
}

/**
 * A call of one of the app's own tools (`tools` on the call): asked before its handler runs, so that the audit
 * trail holds every tool call the agent made. `decline` answers the agent with a tool error; `cancel` also
 * cancels the turn.
 */
export interface AppToolApprovalRequest extends ApprovalRequestBase {
  kind: "appTool";
  /** The tool's name as the app defined it. */
  tool: string;
  /** The call's arguments, already checked against the tool's `inputSchema`. */
  arguments: unknown;
}

/** One approval request from the agent, a union on `kind`. */
export type ApprovalRequest =
  | CommandApprovalRequest
  | FileChangeApprovalRequest
  | PermissionsApprovalRequest
  | McpToolCallApprovalRequest
  | ToolApprovalRequest
  | AppToolApprovalRequest;

/** What an approval request is about (`command`, `fileChange`, `appTool`, …): the `kind` of an {@link ApprovalRequest}. */
export type ApprovalKind = ApprovalRequest["kind"];

/** Who decided an approval request (see `approval.resolved`). */
export type ApprovalDecider = "handler" | "default" | "deadline" | "cancel";

/** What a handler is given beside the request. */
export interface ApprovalContext {
  /** Aborted when the answer is no longer wanted: the turn was cancelled or ended, or the deadline passed. */
  signal: AbortSignal;
}

/** One question of a user-input request; `options` are the answers the agent proposes, if any. */
export interface UserInputQuestion {
  id: string;
  header: string;
  question: string;
  options: { label: string; description: string }[] | null;
  /** The person may answer something other than the options. */
  isOther: boolean;
  /** The answer should not be echoed (a secret). */
  isSecret: boolean;
}

/** The agent asks the person questions (a user-input tool of the agent). */
export interface UserInputRequest {
  id: string;
  itemId: string | null;
  questions: UserInputQuestion[];
  native: { method: string; params: unknown };
}

/** Answers by question id; a question left out is unanswered. */
export type UserInputAnswers = Record<string, string[]>;

/** An MCP server asks the person for input (an elicitation: a form, or a URL to open). */
export interface ElicitationRequest {
  id: string;
  server: string;
  message: string;
  /** `form` (fill `schema`), `url` (open `url`), or the mode the harness sent. */
  mode: string;
  /** The requested form's JSON Schema, in form mode. */
  schema: unknown;
  url: string | null;
  native: { method: string; params: unknown };
}

/** The answer to an elicitation: `accept` with the form's `content`, `decline` or `cancel`. */
export interface ElicitationAnswer {
  action: "accept" | "decline" | "cancel";
  content?: unknown;
}

/**
 * Routing of the agent's requests to the app (opt-in per call). With it, the agent runs in a mode that asks
 * (docs/approvals.md names each harness's), and every approval request goes to `onRequest`.
 */
export interface ApprovalOptions {
  /**
   * Decides one approval request. A handler that throws, rejects or returns anything but a decision this request
   * offers answers `decline`; so does one that has not answered within `timeoutMs`.
   */
  onRequest(request: ApprovalRequest, context: ApprovalContext): ApprovalDecision | Promise<ApprovalDecision>;
  /** How long a handler may take, in ms. Default: no deadline. */
  timeoutMs?: number | undefined;
  /**
   * When the agent asks: `untrusted` (default: before every command it does not know to be read-only, and
   * every file change) or `on-request` (only when the agent wants more than its harness allows without
   * asking). docs/approvals.md says what each harness asks about in each mode.
   */
  mode?: "untrusted" | "on-request" | undefined;
  /** Answers the agent's questions. Default: no answers. Throwing or the deadline: no answers. */
  onUserInput?:
    | ((request: UserInputRequest, context: ApprovalContext) => UserInputAnswers | Promise<UserInputAnswers>)
    | undefined;
  /** Answers MCP elicitations. Default: `decline`. Throwing or the deadline: `decline`. */
  onElicitation?:
    | ((
        request: ElicitationRequest,
        context: ApprovalContext,
      ) => ElicitationAnswer | Promise<ElicitationAnswer>)
    | undefined;
}

/**
 * Limits that stop a turn as `cancelled` (`cancellation.reason: "limit"`, `cancellation.limit` naming it),
 * checked as the agent's events arrive.
 */
export interface TurnLimits {
  /** Wall time from the start of the session, in ms. */
  maxDurationMs?: number | undefined;
  /** Tokens of the turn (`usage.totalTokens`): the turn stops once it has used more. */
  maxTokens?: number | undefined;
  /** Tool calls of the turn (`tool.started` events): the turn stops at the first one beyond it. */
  maxToolCalls?: number | undefined;
  /** Cost in US dollars, for a harness that reports one (refused by a harness that reports none). */
  maxCostUsd?: number | undefined;
}

/** Guidance sent into a running turn: text, or inputs (text and local images). */
export type SteerInput = { type: "text"; text: string } | { type: "localImage"; path: string };
