/** A Claude Code call checked and turned into Claude's command line and environment, before any I/O. */
import { checkApprovals, checkLimits } from "../../call/app-options.js";
import {
  checkImagePaths,
  checkOptionKeys,
  checkSignal,
  checkTimeoutValues,
  describeValue,
  InvalidOptionsError,
  type KnownOptions,
} from "../../call/option-keys.js";
import { checkCwd, checkPrompt } from "../../call/turn-inputs.js";
import type { ProjectTrust } from "../../harness/events.js";
import { parseMcpPolicy, type McpPolicyValue } from "../../mcp/mcp-policy.js";
import { McpPolicyError } from "../../mcp/mcp-policy-error.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { checkAppToolsServerName, toolSet, type ToolSet } from "../../tools/tool-set.js";
import { claudeCapabilities } from "../capabilities.js";
import { resolveClaudeImages } from "../claude-images.js";
import {
  claudeTurnArgs,
  type ClaudeMcpSelection,
  type ClaudeMcpServerConfig,
  type ClaudePermissionMode,
} from "../turn-argv.js";
import type { ClaudeCodeCallOptions } from "./claude-call-options.js";
import { CLAUDE_OPTION_HINTS, CLAUDE_TIMEOUT_OPTIONS } from "./claude-known-options.js";
import type { ClaudeTurnPlan } from "./prepare-claude-turn.js";

const AGENT = "Claude Code";

/** Checks a call's keys and the types of its values; throws `InvalidOptionsError` or `InvalidTurnInputError`. */
export function checkClaudeCall(options: unknown, known: KnownOptions): void {
  checkOptionKeys(options, known, CLAUDE_OPTION_HINTS);
  const call = options as Record<string, unknown>;
  checkPrompt(call.prompt, AGENT);
  checkClaudeSharedOptions(call);
}

/**
 * The types of the values a call shares with a conversation (all but the prompt), and the `cwd` a directory;
 * throws `InvalidOptionsError` or `InvalidTurnInputError` (`CWD_INVALID`). Pure apart from `checkCwd`'s `stat`.
 */
export function checkClaudeSharedOptions(call: Record<string, unknown>): void {
  if (call.cwd !== undefined) checkCwd(call.cwd, process.cwd(), AGENT);
  checkSignal(call.signal);
  for (const key of ["trustProject", "keepThread"] as const)
    if (call[key] !== undefined && typeof call[key] !== "boolean")
      invalid(`${key} must be true or false, got ${describeValue(call[key])}`);
  const { model, images, env, timeouts, tools } = call;
  if (tools !== undefined) toolSet(tools);
  if (model !== undefined && (typeof model !== "string" || model.trim() === ""))
    invalid(`model must be a model name, got ${describeValue(model)}: leave it out to use Claude Code's own`);
  checkImagePaths(images);
  if (env !== undefined && (typeof env !== "object" || env === null || Array.isArray(env)))
    invalid(`env must be an object of variable names to values, got ${describeValue(env)}`);
  if (timeouts !== undefined) {
    checkOptionKeys(timeouts, CLAUDE_TIMEOUT_OPTIONS, CLAUDE_OPTION_HINTS);
    checkTimeoutValues(timeouts as Record<string, unknown>);
  }
  checkApprovals(call.approvals, CLAUDE_OPTION_HINTS);
  checkLimits(call.limits, CLAUDE_OPTION_HINTS, { costUsd: true });
}

/** The smaller of the two cost caps (`maxBudgetUsd`, `limits.maxCostUsd`): Claude's `--max-budget-usd`. */
function budgetOf(options: ClaudeCodeCallOptions): number | undefined {
  const caps = [options.maxBudgetUsd, options.limits?.maxCostUsd].filter((c): c is number => c !== undefined);
  return caps.length === 0 ? undefined : Math.min(...caps);
}

/** What the runner needs of a checked call. */
export interface ClaudeCallPlan extends Omit<ClaudeTurnPlan, "resolve" | "launcher" | "reapOrphans"> {
  trust: ProjectTrust;
  /** The cost cap given to `--max-budget-usd`, if any. */
  budgetUsd: number | undefined;
  /** The call's app tools, checked; null for none. */
  tools: ToolSet | null;
}

/**
 * The command line and environment of a checked call. Throws for values that need more than a type check:
 * images (`IMAGE_UNREADABLE`), the MCP policy (`McpPolicyError`), the resume id (`RESUME_ID_INVALID`), the
 * effort (`EFFORT_INVALID`), the budget.
 */
export function planClaudeTurn(
  options: ClaudeCodeCallOptions,
  context: { clientEnv: NodeJS.ProcessEnv; jsonSchema: JsonSchemaObject | undefined },
): ClaudeCallPlan {
  const cwd = options.cwd === undefined ? process.cwd() : checkCwd(options.cwd, process.cwd(), AGENT);
  const imageFiles = options.images === undefined ? [] : resolveClaudeImages(options.images, cwd);
  const trustProject = options.trustProject === true;
  const budgetUsd = budgetOf(options);
  const asking = options.approvals !== undefined;
  const permissionMode: ClaudePermissionMode = !asking
    ? "bypassPermissions"
    : options.approvals?.mode === "on-request"
      ? "acceptEdits"
      : "default";
  const tools = options.tools === undefined ? null : toolSet(options.tools);
  // only an absent policy is the default; null is refused as any other non-policy
  const policy = parseMcpPolicy(options.mcp === undefined ? { servers: [] } : options.mcp);
  checkAppToolsServerName(tools, policy, AGENT);
  const args = claudeTurnArgs({
    permissionMode,
    ...(asking ? { permissionPromptTool: "stdio" as const } : {}),
    // the version is not known yet: prepareClaudeTurn checks a known one against `needs`, else claude refuses by name
    capabilities: claudeCapabilities(null),
    persistSession: options.keepThread === true,
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(context.jsonSchema !== undefined ? { jsonSchema: context.jsonSchema } : {}),
    ...(budgetUsd !== undefined ? { maxBudgetUsd: budgetUsd } : {}),
    trustProject,
    mcp: claudeMcpSelection(policy),
  });
  return {
    args,
    cwd,
    env: { ...context.clientEnv, ...options.env },
    imageFiles,
    permissionMode,
    needs: { approvals: asking, ...(options.effort !== undefined ? { effort: options.effort } : {}) },
    budgetUsd,
    trust: { level: trustProject ? "trusted" : "untrusted", source: trustProject ? "call" : "default" },
    tools,
  };
}

/**
 * Rennet's MCP policy in Claude Code's `--mcp-config` shape: each server `{type:"http", url, headers}`; a
 * `bearerTokenEnvVar` becomes `Authorization: Bearer ${VAR}`, which Claude expands from its own environment, so
 * the token never reaches the command line. Claude has no per-server timeouts: those fields are not sent. A
 * server named `__proto__` throws `MCP_SPEC_INVALID`: Claude Code (2.0.77, 2.1.332) would silently not start it.
 */
function claudeMcpSelection(policy: McpPolicyValue): ClaudeMcpSelection {
  if (policy === "inherit") return "inherit";
  const servers: Record<string, ClaudeMcpServerConfig> = {};
  for (const server of policy.servers) {
    if (server.name === "__proto__")
      throw new McpPolicyError(
        "MCP_SPEC_INVALID",
        'MCP server "__proto__": Claude Code drops a server of this name without a word; request it under another name',
      );
    const headers: Record<string, string> = { ...server.httpHeaders };
    if (server.bearerTokenEnvVar !== undefined)
      headers.Authorization = `Bearer \${${server.bearerTokenEnvVar}}`;
    const config = { type: "http", url: server.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    Object.defineProperty(servers, server.name, { value: config, enumerable: true });
  }
  return { servers };
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
