/** Builders for the requests Rennet sends to `codex app-server`. Pure; the protocol test validates their output. */

import { packageVersion } from "../../package-version.js";

/** How Rennet introduces itself in `initialize` (`clientInfo`). */
const CLIENT_INFO = { name: "rennet", title: "Rennet", version: packageVersion() } as const;

export interface TurnRequestOptions {
  prompt: string;
  /** Working directory of the thread and turn. Default: the current directory. */
  cwd?: string;
  model?: string;
  /** Keep the thread out of the user's history (no rollout file). Default true; ignored with `resume`. */
  ephemeral?: boolean;
  /** Continue this (non-ephemeral) thread with `thread/resume` instead of starting one. */
  resume?: string;
  /** Absolute paths of local images sent after the prompt. */
  images?: readonly string[];
  reasoningSummary?: string;
  /**
   * Trust the cwd's project for this call (`true`, unless the user's Codex config distrusts it) or not
   * (`false`); omitted: the user's own entry for the cwd or its project root, else untrusted (see `decideTrust`).
   */
  trustProject?: boolean;
  /** Thread config overrides (e.g. the cwd's trust decision, so that codex does not persist one). */
  threadConfig?: Record<string, unknown>;
  /**
   * The thread's sandbox. Default `danger-full-access`; without `approvalMode` every turn gets full access from
   * `turn/start`.
   */
  threadSandbox?: "danger-full-access" | "workspace-write" | "read-only";
  /**
   * Set when the app answers approvals: the approval policy of the thread and the turn, whose sandbox is then the
   * thread's (`threadSandbox`) rather than full access.
   */
  approvalMode?: "untrusted" | "on-request";
  /** Utility calls only: JSON Schema for the final message. */
  outputSchema?: unknown;
  /** Utility calls only: reasoning effort. The agentic session never sends one. */
  effort?: string;
  /** `thread/start.dynamicTools`: the app tools offered to the model (see {@link dynamicToolSpec}). */
  dynamicTools?: readonly Record<string, unknown>[];
}

/** What an app tool is offered as: codex's `DynamicToolSpec` (`type` is required from 0.160, ignored before). */
export function dynamicToolSpec(tool: {
  name: string;
  description: string;
  inputSchema: unknown;
}): Record<string, unknown> {
  return { type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/**
 * `initialize` params; `experimentalApi` declares `capabilities.experimentalApi`, without which codex refuses
 * `thread/start.dynamicTools` ("requires experimentalApi capability").
 */
export function buildInitializeParams(options: { experimentalApi?: boolean } = {}): Record<string, unknown> {
  return {
    clientInfo: { ...CLIENT_INFO },
    ...(options.experimentalApi === true ? { capabilities: { experimentalApi: true } } : {}),
  };
}

export function buildThreadStartParams(options: TurnRequestOptions): Record<string, unknown> {
  const params: Record<string, unknown> = {
    cwd: options.cwd ?? process.cwd(),
    approvalPolicy: options.approvalMode ?? "never",
    sandbox: options.threadSandbox ?? "danger-full-access",
    ephemeral: options.ephemeral ?? true,
  };
  if (options.model !== undefined) params.model = options.model;
  if (options.threadConfig !== undefined) params.config = options.threadConfig;
  if (options.dynamicTools !== undefined && options.dynamicTools.length > 0)
    params.dynamicTools = options.dynamicTools;
  return params;
}

/**
 * `thread/resume` (which takes no tools: a resumed thread keeps the `dynamicTools` of its `thread/start`) with the same cwd, policies and thread config a new thread would get. */
export function buildThreadResumeParams(
  threadId: string,
  options: TurnRequestOptions,
): Record<string, unknown> {
  const params: Record<string, unknown> = {
    threadId,
    cwd: options.cwd ?? process.cwd(),
    approvalPolicy: options.approvalMode ?? "never",
    sandbox: options.threadSandbox ?? "danger-full-access",
  };
  if (options.model !== undefined) params.model = options.model;
  if (options.threadConfig !== undefined) params.config = options.threadConfig;
  return params;
}

export function buildTurnStartParams(threadId: string, options: TurnRequestOptions): Record<string, unknown> {
  const params: Record<string, unknown> = {
    threadId,
    input: [
      { type: "text", text: options.prompt },
      ...(options.images ?? []).map((file) => ({ type: "localImage", path: file })),
    ],
    cwd: options.cwd ?? process.cwd(),
    // with approvals the turn keeps the thread's sandbox (no override)
    ...(options.approvalMode === undefined
      ? { approvalPolicy: "never", sandboxPolicy: { type: "dangerFullAccess" } }
      : { approvalPolicy: options.approvalMode }),
  };
  if (options.model !== undefined) params.model = options.model;
  if (options.outputSchema !== undefined) params.outputSchema = options.outputSchema;
  if (options.effort !== undefined) params.effort = options.effort;
  if (options.reasoningSummary !== undefined) params.summary = options.reasoningSummary;
  return params;
}
