import type { EventBody, ProjectTrust, SessionStartedEvent, EventBase } from "../../harness/events.js";
import type { JsonRpcResponseError } from "../../jsonl/errors.js";
import type { Launcher } from "../../process/stdio-child.js";
import type { ChildGone } from "../../session/child-session.js";
import type { ReadThrottle } from "../../session/read-throttle.js";
import type { TimerSet } from "../../session/timer-set.js";
import type { AppServerLaunch } from "../app-server/app-server-launch.js";
import { AppServerSession } from "../app-server/app-server-session.js";
import type { StateDbRaceRestart } from "../versions/state-db-race.js";
import type { TurnRequestOptions } from "../protocol/protocol-requests.js";
import type { ApprovalOptions } from "../../harness/approvals.js";
import { ServerRequestRouter } from "./server-request-router.js";
import { AppToolCalls } from "../../tools/app-tool-calls.js";
import type { ToolSet } from "../../tools/tool-set.js";
import { dynamicToolSpecs, serveToolCall, TOOL_CALL_METHOD } from "./app-tool-requests.js";
import { TurnEventMapper, type TurnEnd } from "./event-mapper.js";
import type { TurnOwnership } from "./turn-ownership.js";
import type { TurnTimeouts } from "./turn-timeouts.js";
import { startTurn } from "./turn-start.js";
import { codexCapabilities } from "../versions/capabilities.js";
import type * as AppToolsMcp from "../../tools/app-tools-mcp.js";
import { UnsupportedCodexFeatureError } from "../versions/unsupported-feature.js";
import { APP_TOOLS_MCP_SERVER } from "../../tools/app-tools-names.js";

/** What one child of a turn is started with. */
export interface TurnChildInput {
  launch: AppServerLaunch;
  launcher: Launcher;
  /** The MCP policy as `thread/start` config, where launch overrides do not reach a thread's servers. */
  mcpThreadConfig: Record<string, unknown> | null;
  /** Whether the MCP policy lets any MCP server start (the inherited ones, or an explicit policy's). */
  mcpServersMayStart: boolean;
  /** The cwd on this machine, and the environment codex runs with (for the untrusted-project check). */
  local: { cwd: string; env: NodeJS.ProcessEnv };
  request: TurnRequestOptions;
  /** The app's handlers for server requests; without them every request is answered at once. */
  approvals?: ApprovalOptions;
  /** The session's app tools (null: none), served on `item/tool/call`, or before 0.100 over loopback MCP. */
  tools: ToolSet | null;
  /** The secret of the app tools' loopback MCP server (set with `tools`): sent only in the thread's config. */
  appToolsSecret: string | null;
  /** Loads the app tools' loopback MCP server (a codex before dynamic tools); absent: such a codex is refused. */
  loadAppToolsMcp?: () => Promise<typeof AppToolsMcp>;
  sessionId: string;
  timeouts: TurnTimeouts;
  throttle: ReadThrottle;
  timers: TimerSet;
}

/** How a turn child reports to its runner. Every callback is synchronous. */
export interface TurnChildRunner {
  readonly ownership: TurnOwnership;
  /** Whether the runner has ended: from then on nothing of the child is reported. */
  ended(): boolean;
  /** Wraps each step of the start sequence; rejects once the runner has ended. */
  until<T>(step: Promise<T>): Promise<T>;
  emit(body: EventBody): void;
  /** A notification was mapped; `ended` when it was the owned turn's end, `turnStarted` for `turn/started`. */
  mapped(ended: TurnEnd | undefined, turnStarted: boolean): void;
  /** A line that is not a JSON-RPC frame. */
  invalidLine(message: string, line: string): void;
  /** `thread/start` or `turn/start` was refused (called while the answer is routed). */
  refused(error: JsonRpcResponseError): void;
  /** `thread/start` named no thread. */
  noThread(resultExcerpt: string): void;
  trust(trust: ProjectTrust): void;
  sessionStarted(started: Omit<SessionStartedEvent, keyof EventBase>): void;
  /** A start lost the state-database race and is repeated. */
  restarted(restart: StateDbRaceRestart): void;
  /** The child went away after `initialize` was answered. */
  gone(gone: ChildGone): void;
  /** Cancels the turn as `cancel()` does (the app's approval handler answered `cancel`). */
  cancel(reason: unknown): void;
}

/**
 * One app-server child of a turn: an {@link AppServerSession} whose frames are routed to the turn's event
 * mapper (owned, foreign and unknown frames), whose server requests are answered at once (`approvals.ts`) except
 * the calls of the session's app tools (`app-tool-requests.ts`), and on which {@link start} runs the start
 * sequence (`turn-start.ts`). The mapper spans every start of the session.
 */
export class TurnChild {
  readonly mapper: TurnEventMapper;
  /** Answers codex's server requests (see {@link ServerRequestRouter}). */
  readonly requests: ServerRequestRouter;
  readonly #session: AppServerSession;
  /** The codex version `initialize` reported, once it did. */
  #codexVersion: string | null = null;
  readonly #input: TurnChildInput;
  readonly #runner: TurnChildRunner;
  readonly #appCalls: AppToolCalls | null;
  #appServer: { close(): Promise<void> } | null = null;

  constructor(input: TurnChildInput, runner: TurnChildRunner) {
    this.#input = input;
    this.#runner = runner;
    const mapper = (this.mapper = new TurnEventMapper(runner.ownership, {
      resumed: input.request.resume !== undefined,
    }));
    this.requests = new ServerRequestRouter(input.approvals, {
      connection: () => this.#session.connection,
      emit: (body) => runner.emit(body),
      ended: () => runner.ended(),
      openItem: (itemId) => mapper.openToolItem(itemId),
      now: () => performance.now(),
    });
    const emit = (body: EventBody): void => {
      if (!runner.ended()) runner.emit(body);
    };
    const tools = input.tools;
    const appCalls = (this.#appCalls =
      tools === null
        ? null
        : new AppToolCalls(tools, {
            sessionId: input.sessionId,
            harness: "codex",
            emit,
            ...(input.approvals
              ? {
                  approve: (request) => this.requests.decide(request),
                  cancelTurn: (reason) => runner.cancel(reason),
                }
              : {}),
          }));
    this.#session = AppServerSession.open({
      spec: input.launch.spec,
      launcher: input.launcher,
      initializeTimeoutMs: input.timeouts.initializeMs,
      experimentalApi: tools !== null,
      throttle: input.throttle,
      timers: input.timers,
      handlers: {
        notification: (frame) => {
          if (runner.ended()) return;
          const mapped = mapper.mapNotification(frame.method, frame.params, frame.frame);
          for (const body of mapped.events) runner.emit(body);
          runner.mapped(mapped.ended, frame.method === "turn/started");
        },
        request: (frame) => {
          if (frame.method === TOOL_CALL_METHOD && appCalls !== null) {
            if (!runner.ended()) serveToolCall(this.#session.connection, frame, appCalls, emit);
          } else this.requests.handle(frame);
        },
        stray: (frame, why) => {
          if (runner.ended()) return;
          for (const body of mapper.mapStray(frame, why)) runner.emit(body);
        },
        invalid: (message, line) => {
          if (!runner.ended()) runner.invalidLine(message, line);
        },
      },
      onRestart: (restart) => {
        if (!runner.ended()) runner.restarted(restart);
      },
      onGone: (gone) => {
        if (!runner.ended()) runner.gone(gone);
      },
    });
  }

  get pid(): number | null {
    return this.#session.pid;
  }

  /** Whether the current child has exited or closed its output. */
  get departing(): boolean {
    return this.#session.departing;
  }

  /**
   * Waits for `initialize` (see {@link AppServerSession.ready}), then runs the start sequence to the
   * acknowledged `turn/start`. Rejects with `AppServerNotReadyError`, the start sequence's errors, or the
   * runner's `until` rejection.
   */
  async start(): Promise<void> {
    const runner = this.#runner;
    const init = await runner.until(this.#session.ready);
    this.#codexVersion = init.codexVersion;
    const appToolsMcp = await this.#startAppToolsServer(init.codexVersion);
    await startTurn({
      conn: this.#session.connection,
      init,
      cwd: this.#input.launch.protocolCwd,
      local: this.#input.local,
      request: {
        ...this.#input.request,
        dynamicTools: appToolsMcp === null ? dynamicToolSpecs(this.#input.tools) : undefined,
      },
      mcpThreadConfig: this.#input.mcpThreadConfig,
      mcpServersMayStart: this.#input.mcpServersMayStart,
      appToolsMcp,
      timeouts: this.#input.timeouts,
      ownership: runner.ownership,
      until: (step) => runner.until(step),
      ended: () => runner.ended(),
      onTrust: (trust) => runner.trust(trust),
      onRefused: (error) => runner.refused(error),
      onNoThread: (line) => runner.noThread(line),
      onSessionStarted: (started) => runner.sessionStarted(started),
      onWarning: (warning) => runner.emit(warning),
    });
  }

  /** The codex version `initialize` reported (null before it did, or when it named none). */
  get codexVersion(): string | null {
    return this.#codexVersion;
  }

  /** A path on this machine as this codex sees it (inside WSL: the distribution's); throws `LaunchCwdError`. */
  protocolPath(file: string): string {
    return this.#input.launch.protocolPath(file);
  }

  /** `turn/steer` for the owned turn; resolves with codex's answer, rejects with the connection's errors. */
  steer(threadId: string, turnId: string, input: unknown[]): Promise<unknown> {
    return this.#session.connection.request("turn/steer", { threadId, input, expectedTurnId: turnId });
  }

  /** `turn/interrupt` for the owned turn; an error answer or a closed connection is left to the runner's timers. */
  interrupt(threadId: string, turnId: string): void {
    this.#session.connection.request("turn/interrupt", { threadId, turnId }).catch(() => {
      // the grace timer or the departure ends the turn
    });
  }

  /**
   * Aborts the app tool calls still running (their handlers' `signal` with `reason`) and returns their
   * `tool.completed` events; codex gets an error answer for each once its handler is abandoned.
   */
  abortAppCalls(reason: unknown): EventBody[] {
    return this.#appCalls?.abortAll(reason) ?? [];
  }

  /**
   * For a codex without dynamic tools (before 0.100): starts the app tools' loopback MCP server and returns
   * its `mcp_servers` entry, the secret in its `Authorization` header: the thread's config travels on stdin only,
   * while the child's environment is passed on to the agent's commands. Null when not needed.
   */
  async #startAppToolsServer(
    version: string | null,
  ): Promise<{ name: string; entry: Record<string, unknown> } | null> {
    const { tools, appToolsSecret, loadAppToolsMcp } = this.#input;
    const capabilities = codexCapabilities(version);
    if (tools === null || this.#appCalls === null || appToolsSecret === null) return null;
    if (capabilities.dynamicTools || !capabilities.supported || !capabilities.appToolsOverMcp) return null;
    if (loadAppToolsMcp === undefined) throw new UnsupportedCodexFeatureError(version, "dynamicTools");
    const { startAppToolsMcp } = await this.#runner.until(loadAppToolsMcp());
    // not raced with the session's end: a server that started listening is closed here or by `end`
    const server = await startAppToolsMcp(tools, this.#appCalls, appToolsSecret);
    this.#appServer = server;
    if (this.#runner.ended()) await server.close();
    this.mapper.appToolsServer = APP_TOOLS_MCP_SERVER;
    return {
      name: APP_TOOLS_MCP_SERVER,
      entry: {
        url: server.url,
        http_headers: { Authorization: `Bearer ${appToolsSecret}` },
        tool_timeout_sec: APP_TOOL_TIMEOUT_SEC,
      },
    };
  }

  /** Ends every tree of the turn (see {@link AppServerSession.end}), and the app tools' server with it. */
  async end(): Promise<void> {
    await this.#session.end();
    await this.#appServer?.close();
  }
}

/**
 * How long codex waits for one app tool call over MCP: no limit of its own in practice (its default is 60 s,
 * too short for a handler or an approval that waits on a person); the session's deadlines and cancel end a call.
 */
const APP_TOOL_TIMEOUT_SEC = 365 * 24 * 60 * 60;

/** What the turn runner loads before it starts a child (see `TurnRunnerOptions.runtime`). */
export interface TurnRuntime {
  openTurnChild(input: TurnChildInput, runner: TurnChildRunner): TurnChild;
}

export const turnRuntime: TurnRuntime = {
  openTurnChild: (input, runner) => new TurnChild(input, runner),
};
