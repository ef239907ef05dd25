import path from "node:path";
import type { HarnessSession } from "../../harness/session.js";
import { checkClientOptionValues } from "../../call/client-option-values.js";
import { settleSession } from "../../call/settle.js";
import { launchExecutable } from "../../discovery/executable-launch.js";
import type { ResolvedCodex } from "../launch/codex-launch.js";
import type { CodexClientOptions, ResolveCodexOptions } from "./client-options.js";
import { Conversation, type ConversationTurn } from "../../call/conversation.js";
import {
  CALL_OPTIONS,
  CLIENT_DISCOVERY_OPTIONS,
  CLIENT_OPTIONS,
  CONVERSATION_OPTIONS,
  RESOLVE_OPTIONS,
} from "./known-options.js";
import {
  checkCallOptions,
  checkOptionKeys,
  checkSharedOptions,
  checkDiscoverOptions,
  checkSignal,
  CODEX_HINTS,
  InvalidOptionsError,
  isResolvedCodex,
} from "./option-check.js";
import {
  checkCwd,
  CODEX_AGENT,
  resolveImageFiles,
  validateReasoningSummary,
  validateResumeId,
} from "./turn-inputs.js";
import { parseMcpPolicy } from "../../mcp/mcp-policy.js";
import type { TurnRunnerOptions } from "../turn/turn-runner-options.js";
import { absoluteLaunch } from "../../discovery/absolute-launch.js";
import {
  DeferredSession,
  type StartedSession,
  withoutSignalOnceCancelled,
} from "../../session/deferred-session.js";
import {
  loadAppToolsMcp,
  loadLauncher,
  loadMcpLaunch,
  loadReaper,
  loadTurnRunner,
  loadTurnRuntime,
} from "./lazy-entries.js";
import { CodexResolver } from "./resolve-codex.js";
import { checkAppToolsServerName, toolSet } from "../../tools/tool-set.js";
import type {
  CodexCallOptions,
  ConversationOptions,
  InternalCallOptions,
  TurnResult,
} from "./call-options.js";

export type { CodexClientOptions, ResolveCodexOptions } from "./client-options.js";
export type { CodexCallOptions, TurnResult } from "./call-options.js";

/**
 * The agentic half of a Codex client: `runStreamed` yields the harness event stream, `run` folds it into a
 * result, `conversation` keeps a thread across turns. {@link CodexClient} adds the utility calls. A module that
 * imports this class alone (as `rennet codex run` does) loads none of the utility executor's schema machinery.
 */
export class CodexSessionClient {
  readonly #options: CodexClientOptions;
  /** Which Codex runs, resolved once per client (and working directory). */
  readonly #resolver: CodexResolver;

  /**
   * Throws `InvalidOptionsError` (`OPTION_UNKNOWN`, `OPTIONS_INVALID`) for options it does not know, a `codex`
   * that is neither a path nor a `ResolvedCodex`, or another option's value of the wrong type.
   */
  constructor(options: CodexClientOptions = {}) {
    checkOptionKeys(options, CLIENT_OPTIONS, true);
    const codex: unknown = options.codex;
    if (
      codex !== undefined &&
      !(typeof codex === "string" && codex.trim() !== "") &&
      !isResolvedCodex(codex)
    ) {
      throw new InvalidOptionsError(
        "OPTIONS_INVALID",
        `createCodex({ codex }) takes the path of a codex executable or a ResolvedCodex, got ${JSON.stringify(codex) ?? String(codex)}`,
      );
    }
    checkClientOptionValues(options);
    checkDiscoverOptions(options.discovery, CLIENT_DISCOVERY_OPTIONS);
    // a hand-built launch's relative paths name files under the process's cwd, as a path given as a string does
    this.#options = isResolvedCodex(codex) ? withAbsoluteLaunch(options, codex) : options;
    this.#resolver = new CodexResolver(this.#options);
  }

  /**
   * Starts one turn in its own app-server child and returns the live session. Throws before anything starts
   * for options it does not take (`OPTION_UNKNOWN`, `OPTIONS_INVALID`), an empty prompt (`PROMPT_EMPTY`), a
   * `cwd` that is not a directory (`CWD_INVALID`) and the other inputs it checks (docs/errors.md).
   */
  runStreamed(options: CodexCallOptions): HarnessSession {
    checkCallOptions(options, CALL_OPTIONS);
    return this.startInternal(options);
  }

  /**
   * Runs one turn to its end. Resolves when completed; rejects with `signal.reason` when the caller's signal
   * cancelled it, with {@link TurnFailedError} when it failed, {@link TurnCancelledError} when it was
   * cancelled otherwise. A signal that is already aborted rejects at once and spawns nothing. A fold over
   * {@link runStreamed}: events are read as they come and dropped, so a long turn holds no backlog.
   */
  async run(options: CodexCallOptions): Promise<TurnResult> {
    checkCallOptions(options, CALL_OPTIONS);
    const session = this.startInternal(options);
    return settleSession(session, options.signal);
  }

  /**
   * A conversation: follow-up turns on one kept thread, each in its own child
   * (`const chat = codex.conversation({ cwd }); await chat.run("…"); await chat.run("and now …")`).
   */
  conversation(options: ConversationOptions = {}): Conversation {
    checkOptionKeys(options, CONVERSATION_OPTIONS, true);
    if (options.cwd !== undefined) checkCwd(options.cwd, process.cwd(), CODEX_AGENT);
    const threadId =
      options.threadId === undefined ? undefined : validateResumeId(options.threadId, "threadId");
    checkSharedOptions(options);
    const { threadId: _threadId, ...shared } = options;
    const start = ({ threadId: thread, ...turn }: ConversationTurn): StartedSession => {
      const call: CodexCallOptions = {
        ...shared,
        ...turn,
        ephemeral: false,
        ...(thread !== null ? { resume: thread } : {}),
      };
      checkCallOptions(call, CALL_OPTIONS);
      return this.startInternal(call);
    };
    return new Conversation(start, threadId ?? null, CODEX_HINTS);
  }

  /**
   * The Codex this client runs for `cwd`: the `codex` option as given (checked once per client), else (with an
   * injected launcher) `RENNET_CODEX_BIN` or `codex`, else discovery's choice, remembered for the client's lifetime. Rejects with
   * {@link CodexUnavailableError} (its `report` lists every candidate) or, on abort, with `signal.reason`.
   */
  async resolveCodex(options: ResolveCodexOptions = {}): Promise<ResolvedCodex> {
    checkOptionKeys(options, RESOLVE_OPTIONS, true);
    checkSignal(options.signal);
    return this.#resolver.resolve(options);
  }

  /** The executable a failure names before the launch is decided: the `codex` option's, else `codex`. */
  #intendedCommand(): string {
    const { codex } = this.#options;
    if (typeof codex === "string") return codex;
    return codex ? launchExecutable(codex.launch) : "codex";
  }

  /**
   * @internal Shared by the agentic session and the utility executor: one native runner, built behind the lazy
   * door. The caller has checked the options ({@link checkCallOptions}); the rest is checked here, before
   * anything loads.
   */
  startInternal(options: InternalCallOptions): StartedSession {
    const env = this.#options.env ?? process.env;
    // the policy is checked once, here; what runs is this frozen copy. Only an absent one is the default: null
    // is refused as any other non-policy, never read as "inherit"
    const policy = parseMcpPolicy(options.mcp === undefined ? "inherit" : options.mcp);
    const reap = this.#options.reapOrphans ?? this.#options.launcher === undefined;
    // the directory is fixed at the call: the runner is built after a deferred load, and a chdir meanwhile must
    // not move the turn (a relative cwd names a directory from where the process is now)
    const cwd = path.resolve(options.cwd ?? process.cwd());
    if (options.reasoningSummary !== undefined) validateReasoningSummary(options.reasoningSummary);
    const images = options.images === undefined ? undefined : resolveImageFiles(options.images, cwd);
    const resume = options.resume === undefined ? undefined : validateResumeId(options.resume);
    const tools = options.tools === undefined ? null : toolSet(options.tools);
    checkAppToolsServerName(tools, policy, "codex before 0.100");
    const command = this.#intendedCommand();
    const runnerOptions: TurnRunnerOptions = {
      ...options,
      cwd,
      ...(options.approvals ? { approvalMode: options.approvals.mode ?? "untrusted" } : {}),
      tools,
      ...(images !== undefined ? { images } : {}),
      ...(resume !== undefined ? { resume } : {}),
      env,
      command,
      runtime: loadTurnRuntime,
      loadAppToolsMcp,
      prepare: async (signal) => {
        const injected = this.#options.launcher;
        // the reaper and discovery do not depend on each other: they overlap
        const reaping = reap ? loadReaper().then((reaper) => reaper.reapBeforeSpawn()) : undefined;
        const launcher = injected ?? (await loadLauncher()).spawnStdioChild;
        const codex = await this.resolveCodex({ cwd, signal });
        await reaping;
        const launch = { codex: codex.launch, launcher };
        if (policy === "inherit") return { ...launch, appServerArgs: [] };
        const { resolveMcpLaunch } = await loadMcpLaunch();
        const mcp = await resolveMcpLaunch(policy, {
          codex: codex.launch,
          cwd,
          env,
          signal,
          ...(options.trustProject === true ? { trustProject: true } : {}),
        });
        return {
          ...launch,
          appServerArgs: mcp.appServerArgs,
          mcpThreadConfig: mcp.threadConfig,
          mcpServersMayStart: policy.servers.length > 0,
        };
      },
      ...(this.#options.interruptGraceMs !== undefined
        ? { interruptGraceMs: this.#options.interruptGraceMs }
        : {}),
    };
    return new DeferredSession("codex", command, async (sessionId, cancelled) => {
      const { CodexTurnRunner } = await loadTurnRunner();
      return new CodexTurnRunner({ ...withoutSignalOnceCancelled(runnerOptions, cancelled()), sessionId });
    });
  }
}

/** `options` with the hand-built `codex`'s launch made absolute ({@link absoluteLaunch}); as given when it is. */
function withAbsoluteLaunch(options: CodexClientOptions, codex: ResolvedCodex): CodexClientOptions {
  const launch = absoluteLaunch(codex.launch);
  return launch === codex.launch ? options : { ...options, codex: { ...codex, launch } };
}
