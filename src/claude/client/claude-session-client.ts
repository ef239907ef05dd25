import { checkClientOptionValues } from "../../call/client-option-values.js";
import { Conversation, type ConversationTurn } from "../../call/conversation.js";
import { checkOptionKeys, InvalidOptionsError } from "../../call/option-keys.js";
import { settleSession, type TurnResult } from "../../call/settle.js";
import type { HarnessSession } from "../../harness/session.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { intendedClaudeCommand } from "./intended-claude-command.js";
import {
  runnerUnavailable,
  DeferredSession,
  type StartedSession,
  withoutSignalOnceCancelled,
} from "../../session/deferred-session.js";
import type { ClaudeTurnRunnerOptions, StructuredOutputCheck } from "../turn/claude-turn-options.js";
import type {
  ClaudeCodeCallOptions,
  ClaudeCodeClientOptions,
  ClaudeConversationOptions,
} from "./claude-call-options.js";
import { checkClaudeCall, checkClaudeSharedOptions, planClaudeTurn } from "./claude-call-plan.js";
import {
  CLAUDE_CALL_OPTIONS,
  CLAUDE_CLIENT_OPTIONS,
  CLAUDE_CONVERSATION_OPTIONS,
  CLAUDE_OPTION_HINTS,
} from "./claude-known-options.js";
import {
  loadClaudeDiscovery,
  loadClaudePrepare,
  loadClaudeResolver,
  loadClaudeTurnProtocol,
  loadClaudeTurnRunner,
} from "./claude-lazy-entries.js";
import type { ResolvedExecutable } from "../../discovery/executable-launch.js";
import { SharedLookups } from "./shared-lookups.js";
import { validateClaudeSessionId } from "../turn-argv.js";

/**
 * The agentic half of a Claude Code client: `runStreamed` yields the harness event stream of one turn in its own
 * `claude -p` child, `run` folds it into a result, `conversation` keeps a thread across turns. {@link ClaudeCodeClient} adds the structured-output calls. A
 * module that imports this class alone (as `rennet claude run` does) loads none of the schema machinery.
 */
export class ClaudeCodeSessionClient {
  readonly #options: ClaudeCodeClientOptions;
  /**
   * Which Claude Code runs, per working directory, for the client's lifetime, shared by its sessions (a failed
   * lookup is not kept; one stops when every session waiting for it has ended).
   */
  readonly #resolved = new SharedLookups<ResolvedExecutable>();

  /** Throws `InvalidOptionsError` (`OPTION_UNKNOWN`, `OPTIONS_INVALID`) for options it does not take. */
  constructor(options: ClaudeCodeClientOptions = {}) {
    checkOptionKeys(options, CLAUDE_CLIENT_OPTIONS, CLAUDE_OPTION_HINTS, true);
    const { claude } = options;
    if (claude !== undefined && (typeof claude !== "string" || claude.trim() === ""))
      invalid(
        `createClaudeCode({ claude }) takes the path of a claude executable, got ${JSON.stringify(claude)}`,
      );
    checkClientOptionValues(options);
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
    return this.startInternal(options);
  }

  /**
   * Runs one turn to its end. Resolves when completed; rejects with `signal.reason` when the caller's signal
   * cancelled it, with `TurnFailedError` when it failed, `TurnCancelledError` when it was cancelled otherwise.
   */
  async run(options: ClaudeCodeCallOptions): Promise<TurnResult> {
    checkClaudeCall(options, CLAUDE_CALL_OPTIONS);
    const session = this.startInternal(options);
    return settleSession(session, options.signal);
  }

  /**
   * A conversation: follow-up turns on one kept thread, each in its own `claude` child
   * (`const chat = claude.conversation({ cwd }); await chat.run("…"); await chat.run("and now …")`). Every turn
   * runs with `keepThread`, each after the first with `resume` of the thread. Throws before anything starts for
   * options it does not take (`OPTION_UNKNOWN`, `OPTIONS_INVALID`; the per-turn ones go to
   * `chat.run(prompt, { signal, images })`), a `cwd` that is not a directory (`CWD_INVALID`), a `threadId` that
   * is not a session id (`RESUME_ID_INVALID`).
   */
  conversation(options: ClaudeConversationOptions = {}): Conversation {
    checkOptionKeys(options, CLAUDE_CONVERSATION_OPTIONS, CLAUDE_OPTION_HINTS, true);
    checkClaudeSharedOptions(options as Record<string, unknown>);
    const { threadId, ...shared } = options;
    const given = threadId === undefined ? null : validateClaudeSessionId(threadId, "threadId");
    const start = ({ threadId: thread, ...turn }: ConversationTurn): StartedSession => {
      const call: ClaudeCodeCallOptions = {
        ...shared,
        ...turn,
        keepThread: true,
        ...(thread !== null ? { resume: thread } : {}),
      };
      checkClaudeCall(call, CLAUDE_CALL_OPTIONS);
      return this.startInternal(call);
    };
    return new Conversation(start, given, CLAUDE_OPTION_HINTS);
  }

  #resolve(cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<ResolvedExecutable> {
    const key = this.#options.claude === undefined ? cwd : "";
    const explicit = this.#options.claude;
    const injected = this.#options.launcher !== undefined;
    const start = (shared: AbortSignal): Promise<ResolvedExecutable> =>
      loadClaudeResolver().then((module) =>
        module.resolveClaude({
          explicit,
          injected,
          env,
          cwd,
          signal: shared,
          loadDiscovery: loadClaudeDiscovery,
        }),
      );
    return this.#resolved.get(key, start, signal);
  }

  /**
   * @internal The session of one checked call (with the structured-output call's schema as Claude Code gets it and its compiled check);
   * its runner is built behind the lazy door.
   */
  startInternal(
    options: ClaudeCodeCallOptions,
    structured?: { schema: JsonSchemaObject; check: StructuredOutputCheck },
  ): StartedSession {
    const schema = structured?.schema;
    const check = structured?.check;
    const client = this.#options;
    const plan = planClaudeTurn(options, { clientEnv: client.env ?? process.env, jsonSchema: schema });
    const command = intendedClaudeCommand(client.claude, plan.env);
    const runnerOptions: ClaudeTurnRunnerOptions = {
      prompt: options.prompt,
      // a protocol half that cannot be loaded fails the turn as a runner that cannot be
      loadProtocol: () =>
        loadClaudeTurnProtocol().catch((error: unknown) => {
          throw runnerUnavailable(error);
        }),
      command,
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
      ...(options.resume !== undefined ? { resumes: validateClaudeSessionId(options.resume) } : {}),
      ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
      cwd: plan.cwd,
      trust: plan.trust,
      tools: plan.tools,
    };
    return new DeferredSession("claude-code", command, async (sessionId, cancelled) => {
      const { ClaudeTurnRunner } = await loadClaudeTurnRunner();
      return new ClaudeTurnRunner({ ...withoutSignalOnceCancelled(runnerOptions, cancelled()), sessionId });
    });
  }
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
