import type { TerminalEvent, Usage } from "../harness/events.js";
import { TurnCancelledError, TurnFailedError } from "../harness/errors.js";
import type { HarnessSession } from "../harness/session.js";
import type { Launcher } from "../process/app-server-process.js";
import { spawnAppServer } from "../process/spawn-app-server.js";
import { reapOrphans } from "../process/spawn-registry.js";
import type { CodexCommand } from "./discovery/codex-command.js";
import { discoverCodex, type DiscoverOptions } from "./discovery/discover.js";
import { CodexUnavailableError } from "./discovery/errors.js";
import { resolveMcpLaunchArgs } from "./mcp/resolve-mcp-launch-args.js";
import { validateMcpPolicy, type McpPolicy } from "./mcp/mcp-policy.js";
import {
  prepareUtilityCall,
  toUtilityResult,
  type UtilityCallOptions,
  type UtilityResult,
} from "./utility-executor.js";
import {
  CodexTurnRunner,
  type CodexLaunchTarget,
  type CompletionCheck,
  type TurnTimeouts,
} from "./turn-runner.js";

/** Options shared by every Codex call. */
export interface CodexCallOptions {
  /** The user prompt. */
  prompt: string;
  /** Working directory for the thread and its commands. Default: `process.cwd()`. */
  cwd?: string;
  /** Model override; default: the user's Codex configuration. */
  model?: string;
  /** Cancels the call; `run()` then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Deadlines per step; see {@link TurnTimeouts}. */
  timeouts?: Partial<TurnTimeouts>;
  /** Keep the thread out of the user's Codex history. Default true. */
  ephemeral?: boolean;
  /**
   * Which MCP servers the child may use: `"inherit"` (default: the user's configuration, untouched), or
   * `{servers:[…]}` (loopback URLs only; every other configured server is disabled, plugins off). An invalid
   * policy throws `McpPolicyError` before anything starts. See docs/mcp-policy.md.
   */
  mcp?: McpPolicy;
}

export interface CodexClientOptions {
  /**
   * Which Codex to run: a path (used exactly as given: no discovery, no probe), a launch target, or a
   * `CodexCommand` from `discoverCodex()`. Default: discovery before each session (`RENNET_CODEX_BIN` first,
   * then the login-shell PATH, the process PATH, known install locations; probes are cached, so a warm
   * discovery costs milliseconds). When nothing works the turn fails before spawning, with
   * `failure.code: "CODEX_UNAVAILABLE"` and every candidate's reason.
   */
  codex?: string | CodexLaunchTarget | CodexCommand;
  /** Options for discovery (used only when `codex` is not given). */
  discovery?: Omit<DiscoverOptions, "env" | "cwd" | "signal">;
  /** Environment for the child. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Starts the app-server child; tests pass `InMemoryAppServer#launcher`. */
  launcher?: Launcher;
  /** Grace after `turn/interrupt` before the tree is killed. Default 2000 ms. */
  interruptGraceMs?: number;
  /** Reap process trees left by a Rennet process that died hard, before each session. Default true. */
  reapOrphans?: boolean;
}

/** What `run()` resolves with: the terminal frame of a completed turn. */
export interface TurnResult {
  finalMessage: string | null;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  terminal: TerminalEvent;
}

/** Internal: everything the runner accepts beyond the public call options. */
export interface InternalCallOptions extends CodexCallOptions {
  outputSchema?: unknown;
  effort?: string;
  completionCheck?: CompletionCheck;
}

/**
 * The Codex to launch when it is known without discovery: an explicit one, or (with an injected launcher,
 * i.e. in tests) `RENNET_CODEX_BIN` else `codex`. Undefined means: discover. Pure.
 */
export function resolveLaunchTarget(
  codex: string | CodexLaunchTarget | CodexCommand | undefined,
  env: NodeJS.ProcessEnv,
  launcherInjected = false,
): CodexLaunchTarget | CodexCommand | undefined {
  if (typeof codex === "string") return { command: codex };
  if (codex) return codex;
  if (!launcherInjected) return undefined;
  const fromEnv = env.RENNET_CODEX_BIN;
  return { command: fromEnv !== undefined && fromEnv !== "" ? fromEnv : "codex" };
}

/** A Codex client: `runStreamed` yields the harness event stream, `run` folds it into a result. */
export class CodexClient {
  readonly #options: CodexClientOptions;

  constructor(options: CodexClientOptions = {}) {
    this.#options = options;
  }

  /** Starts one turn in its own app-server child and returns the live session. */
  runStreamed(options: CodexCallOptions): HarnessSession {
    return this.startInternal(agenticOnly(options));
  }

  /**
   * Runs one turn to its end. Resolves when completed; rejects with `signal.reason` when the caller's signal
   * cancelled it, with {@link TurnFailedError} when it failed, {@link TurnCancelledError} when it was
   * cancelled otherwise. A signal that is already aborted rejects at once and spawns nothing.
   */
  async run(options: CodexCallOptions): Promise<TurnResult> {
    const runner = this.startInternal(agenticOnly(options));
    const terminal = await runner.result;
    return settle(terminal, options.signal, runner.cancelReason);
  }

  /**
   * Starts one utility call and returns the live session: the turn carries the strict form of `schema` as
   * `outputSchema` and, when given, `effort`; a completed terminal frame carries the parsed value as
   * `structuredOutput`. A final message that is not JSON or breaks the schema ends the turn `failed` with a
   * `parse` failure. Throws `EFFORT_INVALID`, `SCHEMA_INVALID`, `SCHEMA_UNSUPPORTED` (and `McpPolicyError`)
   * synchronously, before anything is spawned. See docs/structured-output.md.
   */
  utilityStreamed(options: UtilityCallOptions): HarnessSession {
    return this.startInternal(prepareUtilityCall(options));
  }

  /**
   * Runs one utility call to its end and resolves with the value, valid against `schema`. Rejects like
   * {@link run}: with `signal.reason` when the caller's signal cancelled it, {@link TurnFailedError} (its
   * `terminal.failure.source` is `parse` for an unusable answer) or {@link TurnCancelledError}; rejects with
   * the preparation error (`EFFORT_INVALID`, `SCHEMA_INVALID`, `SCHEMA_UNSUPPORTED`) before anything is
   * spawned. `T` is not checked beyond the schema: keep it in line with `schema`.
   */
  async utility<T = unknown>(options: UtilityCallOptions): Promise<UtilityResult<T>> {
    const runner = this.startInternal(prepareUtilityCall(options));
    const terminal = await runner.result;
    return toUtilityResult<T>(settle(terminal, options.signal, runner.cancelReason));
  }

  /** @internal Shared by the agentic session and the utility executor: one native runner. */
  startInternal(options: InternalCallOptions): CodexTurnRunner {
    const env = this.#options.env ?? process.env;
    const policy = options.mcp ?? "inherit";
    validateMcpPolicy(policy);
    const explicit = resolveLaunchTarget(this.#options.codex, env, this.#options.launcher !== undefined);
    const reap = this.#options.reapOrphans ?? this.#options.launcher === undefined;
    const cwd = options.cwd ?? process.cwd();
    const discovery = this.#options.discovery;
    return new CodexTurnRunner({
      ...options,
      ...(explicit ? { codex: explicit } : {}),
      env,
      prepare: async (signal) => {
        if (reap) await reapOrphans().catch(() => undefined);
        let codex = explicit;
        if (!codex) {
          const report = await discoverCodex({ ...discovery, env, cwd, signal });
          if (!report.available || !report.chosen) throw new CodexUnavailableError(report);
          codex = report.chosen;
        }
        if (policy === "inherit") return { codex };
        return { codex, appServerArgs: await resolveMcpLaunchArgs(policy, { codex, cwd, env, signal }) };
      },
      launcher: this.#options.launcher ?? spawnAppServer,
      ...(this.#options.interruptGraceMs !== undefined
        ? { interruptGraceMs: this.#options.interruptGraceMs }
        : {}),
    });
  }
}

/**
 * The agentic session never sends `effort` or `outputSchema` and never checks the answer, even when an untyped
 * caller passes those fields: they belong to utility calls.
 */
function agenticOnly(options: CodexCallOptions): CodexCallOptions {
  const {
    effort: _effort,
    outputSchema: _outputSchema,
    completionCheck: _completionCheck,
    ...rest
  } = options as InternalCallOptions;
  return rest;
}

/** Turns a terminal frame into the promise outcome documented on {@link CodexClient.run}. */
export function settle(
  terminal: TerminalEvent,
  signal: AbortSignal | undefined,
  cancelReason?: unknown,
): TurnResult {
  if (terminal.outcome === "completed") {
    return {
      finalMessage: terminal.finalMessage,
      usage: terminal.usage,
      model: terminal.model,
      threadId: terminal.threadId,
      terminal,
    };
  }
  if (terminal.outcome === "cancelled") {
    if (signal?.aborted && (cancelReason === undefined || cancelReason === signal.reason))
      throw signal.reason;
    throw new TurnCancelledError(terminal);
  }
  throw new TurnFailedError(terminal);
}

export function createCodex(options: CodexClientOptions = {}): CodexClient {
  return new CodexClient(options);
}
