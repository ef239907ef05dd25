/**
 * The command line of one Claude Code turn. The prompt never goes here (it is written to stdin, so it is not in
 * the process table); every value is passed as `--flag=value`, so a value that starts with `-` cannot be read as
 * another flag. Pure: the same options always give the same arguments, and a value Claude Code would reject or
 * misread throws before anything starts.
 */
import { InvalidTurnInputError } from "../call/turn-inputs.js";
import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";
import type { ClaudeCapabilities } from "./capabilities.js";
import { CLAUDE_CAPABILITY_FROM } from "./capabilities.js";
import { ClaudeUnsupportedVersionError } from "./errors.js";

/** Claude Code's permission modes. Rennet's default is `bypassPermissions`: it never asks a person. */
export type ClaudePermissionMode = "bypassPermissions" | "acceptEdits" | "default" | "dontAsk" | "plan";

const PERMISSION_MODES: ReadonlySet<string> = new Set([
  "bypassPermissions",
  "acceptEdits",
  "default",
  "dontAsk",
  "plan",
]);

/** An MCP server for `--mcp-config`, in Claude Code's own shape (`{type:"http", url, headers?}`, …). */
export type ClaudeMcpServerConfig = Readonly<Record<string, unknown>>;

/**
 * Which MCP servers the turn gets: `servers` (the default, with none) starts exactly these and no other
 * (`--strict-mcp-config`: neither the user's `~/.claude.json` servers nor a repository's `.mcp.json`);
 * `inherit` leaves Claude Code's own MCP configuration in charge.
 */
export type ClaudeMcpSelection = "inherit" | { servers: Readonly<Record<string, ClaudeMcpServerConfig>> };

/** Options of {@link claudeTurnArgs}. */
export interface ClaudeTurnArgsOptions {
  /** The capabilities of the Claude Code that will run (see `claudeCapabilities`). */
  capabilities: ClaudeCapabilities;
  /** Default `bypassPermissions`. */
  permissionMode?: ClaudePermissionMode;
  /** `stdio`: permission prompts come to the client as `can_use_tool` control requests. Default: none. */
  permissionPromptTool?: "stdio";
  /** Keep the session's transcript so that it can be resumed. Default false (`--no-session-persistence`). */
  persistSession?: boolean;
  /** Continue this session (a UUID from an earlier turn that ran with `persistSession`). */
  resume?: string;
  model?: string;
  /** `low`, `medium`, `high`, `max`, and `xhigh` where the version has it. */
  effort?: string;
  /** A JSON Schema: Claude offers the model a `StructuredOutput` tool and the `result` carries the value. */
  jsonSchema?: Readonly<Record<string, unknown>>;
  /** Claude Code stops the turn once it has spent more than this, in US dollars. */
  maxBudgetUsd?: number;
  /**
   * Let the repository's own Claude settings in (`.claude/settings.json`, `.claude/settings.local.json`: hooks,
   * env, MCP approvals, permissions). Default false: only the user's settings apply.
   */
  trustProject?: boolean;
  /** Default `{ servers: {} }`: no MCP server at all. */
  mcp?: ClaudeMcpSelection;
}

/**
 * A resumable session id: Claude Code names a session by a UUID in its hyphenated 8-4-4-4-12 form and finds its
 * transcript by that name (`--resume` would also take a title, which Rennet never passes).
 */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `resume` checked to be a Claude Code session id ({@link SESSION_ID}), trimmed and in lower case: Claude Code
 * names a transcript by the lower-case id and does not find it by an upper-case one. Anything else (a `urn:uuid:`
 * or hyphenless UUID, a title) throws `RESUME_ID_INVALID` naming the option (`name`), the value and the
 * accepted form. Pure.
 */
export function validateClaudeSessionId(value: unknown, name = "resume"): string {
  const id = typeof value === "string" ? value.trim() : value;
  if (typeof id === "string" && SESSION_ID.test(id)) return id.toLowerCase();
  throw new InvalidTurnInputError(
    "RESUME_ID_INVALID",
    `${name} ${JSON.stringify(value) ?? String(value)} is not a Claude Code session id: give the threadId of a ` +
      "turn that kept its session (keepThread: true; CLI: --keep-thread), a UUID in its 8-4-4-4-12 form such as " +
      "4b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3",
  );
}

/** `xhigh` needs the `effortXhigh` capability. */
export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

/**
 * The setting sources of a turn. Untrusted (the default) is `user`: the user's own `~/.claude/settings.json`
 * applies (their `apiKeyHelper`, gateway `env`, model, hooks: Rennet drives the user's own Claude Code, as it
 * applies the user's own Codex config), while the repository's `.claude/settings.json` and
 * `settings.local.json` do not: measured on 2.1.332, their hooks, `apiKeyHelper`, `env` (including an
 * `ANTHROPIC_BASE_URL` that would receive the API key) and MCP approvals all stay inert. `""` (no sources)
 * would also drop the user's own settings, breaking an `apiKeyHelper` or gateway login, so it is not the
 * default. The repository's `CLAUDE.md` files are project memory: with `user` alone they do not reach the model
 * either (measured on 2.0.77, 2.1.112 and 2.1.332). Trusted adds `project,local`, which is Claude Code's own
 * default.
 */
export function settingSources(trustProject: boolean): string {
  return trustProject ? "user,project,local" : "user";
}

/** The arguments after the executable, e.g. `["-p", "--input-format", "stream-json", …]`. Pure. */
export function claudeTurnArgs(options: ClaudeTurnArgsOptions): string[] {
  const permissionMode = options.permissionMode ?? "bypassPermissions";
  if (!PERMISSION_MODES.has(permissionMode))
    invalid(
      `permissionMode ${JSON.stringify(permissionMode)} is not one of ${[...PERMISSION_MODES].join(", ")}`,
    );
  const args = [
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-partial-messages",
    `--permission-mode=${permissionMode}`,
    // a user message written while the turn runs (a steer) is acknowledged with `command_lifecycle` lines
    "--replay-user-messages",
  ];
  if (options.permissionPromptTool === "stdio") args.push("--permission-prompt-tool=stdio");
  if (options.persistSession !== true) args.push("--no-session-persistence");
  if (options.resume !== undefined) args.push(`--resume=${validateClaudeSessionId(options.resume)}`);
  if (options.model !== undefined) args.push(`--model=${validateClaudeModel(options.model)}`);
  if (options.effort !== undefined)
    args.push(`--effort=${effortLevel(options.effort, options.capabilities)}`);
  if (options.jsonSchema !== undefined) args.push(`--json-schema=${schemaJson(options.jsonSchema)}`);
  if (options.maxBudgetUsd !== undefined) args.push(`--max-budget-usd=${budget(options.maxBudgetUsd)}`);
  args.push(`--setting-sources=${settingSources(options.trustProject === true)}`);
  args.push(...mcpArgs(options.mcp ?? { servers: {} }));
  return args;
}

/**
 * `--strict-mcp-config --mcp-config={"mcpServers":{…}}`, or nothing for `inherit`. The arguments are visible in
 * the process table: a secret (a bearer token) belongs in the child's environment, referenced as `${VAR}` in a
 * header, which Claude Code expands.
 */
export function mcpArgs(mcp: ClaudeMcpSelection): string[] {
  if (mcp === "inherit") return [];
  if (!isRecord(mcp) || !isRecord(mcp.servers)) invalid('mcp must be "inherit" or { servers: {…} }');
  const servers: Record<string, ClaudeMcpServerConfig> = {};
  for (const [name, config] of Object.entries(mcp.servers)) {
    if (name.trim() === "") invalid("an MCP server name is empty");
    if (!isRecord(config)) invalid(`MCP server ${JSON.stringify(name)} is not an object`);
    Object.defineProperty(servers, name, { value: config, enumerable: true });
  }
  return ["--strict-mcp-config", `--mcp-config=${JSON.stringify({ mcpServers: servers })}`];
}

/** `model` checked to be a name Claude Code can take on its command line: not empty, no control character. Pure. */
export function validateClaudeModel(model: unknown): string {
  // eslint-disable-next-line no-control-regex
  if (typeof model !== "string" || model.trim() === "" || /[\u0000-\u001f\u007f]/.test(model))
    invalid(`model ${JSON.stringify(model)} must be a non-empty name without control characters`);
  return model;
}

function effortLevel(effort: string, capabilities: ClaudeCapabilities): string {
  if (typeof effort !== "string" || !EFFORT_LEVELS.includes(effort as (typeof EFFORT_LEVELS)[number]))
    throw new RennetError(
      "EFFORT_INVALID",
      `effort ${JSON.stringify(effort)} is not one of ${EFFORT_LEVELS.join(", ")}`,
    );
  if (!capabilities.effort)
    throw new ClaudeUnsupportedVersionError(capabilities.version, CLAUDE_CAPABILITY_FROM.effort, "--effort");
  if (effort === "xhigh" && !capabilities.effortXhigh)
    throw new ClaudeUnsupportedVersionError(
      capabilities.version,
      CLAUDE_CAPABILITY_FROM.effortXhigh,
      "--effort xhigh",
    );
  return effort;
}

function schemaJson(schema: Readonly<Record<string, unknown>>): string {
  if (!isRecord(schema)) invalid("jsonSchema must be a JSON Schema object");
  return JSON.stringify(schema);
}

function budget(usd: number): string {
  if (typeof usd !== "number" || !Number.isFinite(usd) || usd <= 0)
    invalid(`maxBudgetUsd ${String(usd)} must be a positive number of US dollars`);
  return String(usd);
}

function invalid(message: string): never {
  throw new RennetError("OPTIONS_INVALID", message);
}
