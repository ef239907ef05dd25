import { checkOptionKeys, InvalidOptionsError } from "../../call/option-keys.js";
import { lastTerminal, settle, type TurnResult } from "../../call/settle.js";
import { toUtilityResult, type UtilityResult } from "../../call/utility-result.js";
import type { HarnessSession } from "../../harness/session.js";
import type { InferSchema } from "../../schema/infer-schema.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { ClaudeTurnRunner } from "../turn/claude-turn-runner.js";
import type {
  ClaudeCodeCallOptions,
  ClaudeCodeClientOptions,
  ClaudeUtilityCallOptions,
} from "./claude-call-options.js";
import { checkClaudeCall, planClaudeTurn } from "./claude-call-plan.js";
import {
  CLAUDE_CALL_OPTIONS,
  CLAUDE_CLIENT_OPTIONS,
  CLAUDE_OPTION_HINTS,
  CLAUDE_UTILITY_OPTIONS,
} from "./claude-known-options.js";
import { structuredOutputCheck } from "./claude-structured-output.js";
import {
  loadClaudeDiscovery,
  loadClaudePrepare,
  loadClaudeResolver,
  loadClaudeTurnProtocol,
} from "./claude-lazy-entries.js";
import type { ResolvedExecutable } from "../../discovery/executable-launch.js";

/** `T` when the caller gave one, else the type the schema describes. */
type ValueOf<T, S> = [T] extends [never] ? InferSchema<S> : T;

/**
 * A Claude Code client: `runStreamed` yields the harness event stream of one turn in its own `claude -p` child,
 * `run` folds it into a result, `utility` / `utilityStreamed` run a structured-output turn. The same shapes as
 * the Codex client's, so that an app switches agent by changing one call.
 */
export class ClaudeCodeClient {
  readonly #options: ClaudeCodeClientOptions;
  /** Which Claude Code runs, per working directory, for the client's lifetime (a failed lookup is not kept). */
  readonly #resolved = new Map<string, Promise<ResolvedExecutable>>();

  /** Throws `InvalidOptionsError` (`OPTION_UNKNOWN`, `OPTIONS_INVALID`) for options it does not take. */
  constructor(options: ClaudeCodeClientOptions = {}) {
    checkOptionKeys(options, CLAUDE_CLIENT_OPTIONS, CLAUDE_OPTION_HINTS, true);
    const { claude, interruptGraceMs } = options;
    if (claude !== undefined && (typeof claude !== "string" || claude.trim() === ""))
      invalid(
        `createClaudeCode({ claude }) takes the path of a claude executable, got ${JSON.stringify(claude)}`,
      );
    if (interruptGraceMs !== undefined && !(typeof interruptGraceMs === "number" && interruptGraceMs >= 0))
      invalid(`interruptGraceMs must be a number of milliseconds, got ${String(interruptGraceMs)}`);
    this.#options = options;
  }

  /**
   * Starts one turn in its own `claude` child and returns the live session. Throws before anything starts for
   * options it does not take (`OPTION_UNKNOWN`, `OPTIONS_INVALID`), an empty prompt (`PROMPT_EMPTY`), a `cwd`
   * that is not a directory (`CWD_INVALID`), an unreadable image (`IMAGE_UNREADABLE`), an invalid MCP policy
   * (`McpPolicyError`), a resume id that is not a session id (`RESUME_ID_INVALID`), an unknown effort.
   */
  runStreamed(options: ClaudeCodeCallOptions): HarnessSession {
    checkClaudeCall(options, CLAUDE_CALL_OPTIONS);
    return this.#start(options);
  }

  /**
   * Runs one turn to its end. Resolves when completed; rejects with `signal.reason` when the caller's signal
   * cancelled it, with `TurnFailedError` when it failed, `TurnCancelledError` when it was cancelled otherwise.
   */
  async run(options: ClaudeCodeCallOptions): Promise<TurnResult> {
    checkClaudeCall(options, CLAUDE_CALL_OPTIONS);
    const session = this.#start(options);
    return settle(await lastTerminal(session.events), options.signal, session.cancelReason);
  }

  /**
   * Starts one structured-output turn (`--json-schema`): Claude Code offers the model its `StructuredOutput`
   * tool, and a completed terminal frame carries the value, validated against `schema`, as `structuredOutput`.
   * A turn without a value, or a value the schema refuses, fails with a `parse` failure. Throws
   * `SCHEMA_INVALID` besides `runStreamed`'s errors.
   */
  utilityStreamed<const S extends JsonSchemaObject>(options: ClaudeUtilityCallOptions<S>): HarnessSession {
    checkClaudeCall(options, CLAUDE_UTILITY_OPTIONS);
    return this.#start(options, options.schema);
  }

  /** Runs one structured-output turn to its end and resolves with the value; rejects like {@link run}. */
  async utility<T = never, const S extends JsonSchemaObject = JsonSchemaObject>(
    options: ClaudeUtilityCallOptions<S>,
  ): Promise<UtilityResult<ValueOf<T, S>>> {
    checkClaudeCall(options, CLAUDE_UTILITY_OPTIONS);
    const session = this.#start(options, options.schema);
    const terminal = await lastTerminal(session.events);
    return toUtilityResult<ValueOf<T, S>>(settle(terminal, options.signal, session.cancelReason));
  }

  #resolve(cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<ResolvedExecutable> {
    const key = this.#options.claude === undefined ? cwd : "";
    let resolved = this.#resolved.get(key);
    if (resolved === undefined) {
      const explicit = this.#options.claude;
      const injected = this.#options.launcher !== undefined;
      resolved = loadClaudeResolver().then((module) =>
        module.resolveClaude({ explicit, injected, env, cwd, signal, loadDiscovery: loadClaudeDiscovery }),
      );
      this.#resolved.set(key, resolved);
      resolved.catch(() => this.#resolved.delete(key));
    }
    return resolved;
  }

  #start(options: ClaudeCodeCallOptions, schema?: JsonSchemaObject): ClaudeTurnRunner {
    const check = schema === undefined ? undefined : structuredOutputCheck(schema);
    const client = this.#options;
    const plan = planClaudeTurn(options, { clientEnv: client.env ?? process.env, jsonSchema: schema });
    const explicit = client.claude;
    return new ClaudeTurnRunner({
      prompt: options.prompt,
      loadProtocol: loadClaudeTurnProtocol,
      command: explicit ?? plan.env.RENNET_CLAUDE_BIN ?? "claude",
      prepare: async (signal) =>
        (await loadClaudePrepare()).prepareClaudeTurn(
          {
            ...plan,
            resolve: (resolveSignal) => this.#resolve(plan.cwd, plan.env, resolveSignal),
            ...(client.launcher !== undefined ? { launcher: client.launcher } : {}),
            reapOrphans: client.reapOrphans ?? client.launcher === undefined,
          },
          signal,
        ),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      turnMs: options.timeouts?.turnMs ?? null,
      ...(client.interruptGraceMs !== undefined ? { interruptGraceMs: client.interruptGraceMs } : {}),
      ...(check !== undefined ? { structuredOutput: check } : {}),
      ...(plan.budgetUsd !== undefined ? { maxBudgetUsd: plan.budgetUsd } : {}),
      ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
      cwd: plan.cwd,
      trust: plan.trust,
      tools: plan.tools,
    });
  }
}

/**
 * A Claude Code client (see {@link ClaudeCodeClient}). Throws `InvalidOptionsError` (`OPTION_UNKNOWN`,
 * `OPTIONS_INVALID`) for options it does not take, before anything starts.
 */
export function createClaudeCode(options: ClaudeCodeClientOptions = {}): ClaudeCodeClient {
  return new ClaudeCodeClient(options);
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
