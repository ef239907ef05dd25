import { randomUUID } from "node:crypto";
import path from "node:path";
import type {
  EventBase,
  EventBody,
  Failure,
  HarnessEvent,
  TerminalEvent,
  TerminalOutcome,
} from "../harness/events.js";
import { EventChannel } from "../harness/event-channel.js";
import type { HarnessSession } from "../harness/session.js";
import { ConnectionClosedError, JsonRpcResponseError, RequestTimeoutError } from "../jsonl/errors.js";
import { excerpt } from "../jsonl/frame-parser.js";
import { JsonRpcConnection } from "../jsonl/json-rpc-connection.js";
import type { TransportClosed } from "../jsonl/transport.js";
import type { AppServerProcess, LaunchSpec, Launcher, ProcessExit } from "../process/app-server-process.js";
import { answerServerRequest } from "./approvals.js";
import { codexLaunchSpec, toLaunchCwd, type CodexCommand } from "./discovery/codex-command.js";
import { TurnEventMapper, type TurnEnd } from "./event-mapper.js";
import { decideTrust, trustOverride } from "./project-trust.js";
import {
  buildInitializeParams,
  buildThreadStartParams,
  buildTurnStartParams,
  type TurnRequestOptions,
} from "./protocol-requests.js";
import { asRecord } from "../json-record.js";

/** Deadlines for each step of a turn, in milliseconds. */
export interface TurnTimeouts {
  /** `initialize` response. Default 30 000. */
  initializeMs: number;
  /** `thread/start` response. Default 30 000. */
  threadStartMs: number;
  /** `turn/start` acknowledgement. Default 30 000. */
  turnStartMs: number;
  /** The whole session, from the call to the terminal frame (discovery, spawn, handshake and turn). Default: none. */
  turnMs: number | null;
}

export const DEFAULT_TIMEOUTS: TurnTimeouts = {
  initializeMs: 30_000,
  threadStartMs: 30_000,
  turnStartMs: 30_000,
  turnMs: null,
};

/** After `turn/interrupt`, how long to wait for the interrupted `turn/completed` before killing. */
export const DEFAULT_INTERRUPT_GRACE_MS = 2_000;

/** Which executable runs `app-server`, and how. Structurally compatible with discovery's `CodexCommand`. */
export interface CodexLaunchTarget {
  command: string;
  /** Arguments placed before `app-server` (e.g. the `codex.js` path when launched through node). */
  prefixArgs?: string[];
  /** Extra environment for the child. */
  env?: Record<string, string>;
}

/** Checks a completed turn's final message; used by the utility executor to parse structured output. */
export type CompletionCheck = (
  finalMessage: string | null,
) => { ok: true; value: unknown } | { ok: false; failure: Failure };

export interface TurnRunnerOptions extends TurnRequestOptions {
  /** The Codex to launch; `prepare` may choose it instead (discovery). */
  codex?: CodexLaunchTarget | CodexCommand;
  /** Environment of the child (default `process.env`), merged under `codex.env`. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeouts?: Partial<TurnTimeouts>;
  interruptGraceMs?: number;
  /** Arguments appended after `app-server` (MCP policy, `--disable plugins`). */
  appServerArgs?: string[];
  /** Starts the child. Default: a real process. Tests pass an in-memory fake. */
  launcher: Launcher;
  /** Runs before anything is spawned (reaping orphans, discovery, the MCP policy). May reject. */
  prepare?: (
    signal: AbortSignal,
  ) => Promise<{ appServerArgs?: string[]; codex?: CodexLaunchTarget | CodexCommand } | void>;
  completionCheck?: CompletionCheck;
  sessionId?: string;
  /** Clock for `at` stamps; tests inject a fixed one. */
  now?: () => Date;
}

type TerminalBody = Omit<TerminalEvent, keyof EventBase>;

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (reason === undefined) return "cancelled";
  return typeof reason === "string" ? reason : JSON.stringify(reason);
}

/**
 * Runs one Codex turn in one app-server child and exposes it as a {@link HarnessSession}.
 * Owns the child: whatever ends the turn, the terminal event is emitted once and the process tree is killed.
 */
export class CodexTurnRunner implements HarnessSession {
  readonly id: string;
  readonly result: Promise<TerminalEvent>;
  readonly #options: TurnRunnerOptions;
  readonly #timeouts: TurnTimeouts;
  readonly #channel: EventChannel<HarnessEvent>;
  readonly #mapper = new TurnEventMapper();
  readonly #prepareAbort = new AbortController();
  readonly #now: () => Date;
  /** The cwd on this machine (spawn cwd). */
  readonly #cwd: string;
  /** The cwd as codex sees it (distribution-native in a WSL locus). */
  #protocolCwd: string;
  #codex: CodexLaunchTarget | CodexCommand | undefined;
  #resolveResult!: (terminal: TerminalEvent) => void;
  #seq = 0;
  #proc: AppServerProcess | null = null;
  #conn: JsonRpcConnection | null = null;
  #exit: ProcessExit | null = null;
  #transportClosed: TransportClosed | null = null;
  #terminal: TerminalEvent | null = null;
  #cancelReason: unknown = undefined;
  #cancelRequested = false;
  #interruptSent = false;
  #timers = new Set<NodeJS.Timeout>();
  #removeAbortListener: (() => void) | null = null;

  constructor(options: TurnRunnerOptions) {
    this.#options = options;
    this.id = options.sessionId ?? randomUUID();
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#now = options.now ?? (() => new Date());
    this.#cwd = path.resolve(options.cwd ?? process.cwd());
    this.#protocolCwd = this.#cwd;
    this.#codex = options.codex;
    this.#channel = new EventChannel<HarnessEvent>(() =>
      this.cancel(new Error("the event consumer stopped")),
    );
    this.result = new Promise((resolve) => {
      this.#resolveResult = resolve;
    });
    const signal = options.signal;
    if (signal?.aborted) {
      this.#cancelReason = signal.reason;
      this.#finish(this.#cancelledBody("before-turn"));
      return;
    }
    if (signal) {
      const onAbort = (): void => this.cancel(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#removeAbortListener = () => signal.removeEventListener("abort", onAbort);
    }
    void this.#run();
  }

  get events(): AsyncIterable<HarnessEvent> {
    return this.#channel;
  }

  /** The reason given to `cancel()` (or the signal's reason), preserved as passed. */
  get cancelReason(): unknown {
    return this.#cancelReason;
  }

  cancel(reason?: unknown): void {
    if (this.#terminal || this.#cancelRequested) return;
    this.#cancelRequested = true;
    this.#cancelReason = reason;
    this.#prepareAbort.abort(reason);
    const turnId = this.#mapper.turnId;
    const threadId = this.#mapper.threadId;
    if (turnId === null || threadId === null || this.#conn === null) {
      this.#finish(this.#cancelledBody("before-turn"));
      return;
    }
    this.#sendInterrupt(threadId, turnId);
  }

  #sendInterrupt(threadId: string, turnId: string): void {
    if (this.#interruptSent || this.#terminal || !this.#conn) return;
    this.#interruptSent = true;
    this.#conn.request("turn/interrupt", { threadId, turnId }).catch(() => {
      // an error answer or a closed connection: the grace timer or the close handler ends the turn
    });
    this.#setTimer(this.#options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS, () => {
      this.#finish(this.#cancelledBody("killed"));
    });
  }

  async #run(): Promise<void> {
    const turnMs = this.#timeouts.turnMs;
    if (turnMs !== null) {
      // The overall deadline covers the whole session: discovery, spawn, handshake and the turn itself.
      this.#setTimer(turnMs, () => {
        this.#finish(
          this.#failedBody({
            source: "turn",
            message: `the turn did not complete within ${turnMs} ms (overall deadline); the process tree was killed`,
            codexErrorInfo: null,
            additionalDetails: null,
            timeout: { step: "turn", timeoutMs: turnMs },
          }),
        );
      });
    }
    let extraArgs: string[] = this.#options.appServerArgs ?? [];
    let spec: LaunchSpec;
    try {
      if (this.#options.prepare) {
        const prepared = await this.#options.prepare(this.#prepareAbort.signal);
        if (prepared?.appServerArgs) extraArgs = [...extraArgs, ...prepared.appServerArgs];
        if (prepared?.codex) this.#codex = prepared.codex;
      }
      if (this.#terminal) return;
      spec = this.#launchSpec(extraArgs);
    } catch (error) {
      if (this.#terminal) return;
      this.#finish(this.#failedBody(this.#prepareFailure(error)));
      return;
    }

    const proc = this.#options.launcher(spec);
    this.#proc = proc;
    void proc.exit.then((exit) => this.#onExit(exit));
    const conn = new JsonRpcConnection(proc.transport, {
      notification: (frame) => {
        if (this.#terminal) return;
        const mapped = this.#mapper.mapNotification(frame.method, frame.params, frame.frame);
        for (const body of mapped.events) this.#emit(body);
        if (frame.method === "turn/started" && this.#cancelRequested) this.#onTurnIdKnown();
        if (mapped.ended) this.#onTurnEnded(mapped.ended);
      },
      request: (frame) => {
        if (this.#terminal) return;
        const reply = answerServerRequest(frame.method, frame.params);
        if (reply.type === "result") conn.respond(frame.id, reply.result);
        else conn.respondError(frame.id, reply.code, reply.message);
        this.#emit({
          type: "request.answered",
          method: frame.method,
          requestId: frame.id,
          params: frame.params,
          reply:
            reply.type === "result"
              ? { result: reply.result }
              : { error: { code: reply.code, message: reply.message } },
        });
      },
      stray: (frame, why) => {
        if (this.#terminal) return;
        for (const body of this.#mapper.mapStray(frame, why)) this.#emit(body);
      },
      invalid: (message, line) => {
        this.#finish(
          this.#failedBody({
            source: "parse",
            message: `codex app-server sent an invalid line: ${message}`,
            line,
          }),
        );
      },
      closed: (reason) => this.#onTransportClosed(reason),
    });
    this.#conn = conn;

    try {
      // An error answer ends the turn while it is routed, before any frame behind it is mapped.
      const onError = (error: JsonRpcResponseError): void => this.#finish(this.#refusedBody(error));
      const init = await conn.request("initialize", buildInitializeParams(), {
        timeoutMs: this.#timeouts.initializeMs,
        onError,
      });
      if (this.#terminal) return;
      conn.notify("initialized");
      const threadConfig = await this.#resolveThreadConfig(conn);
      if (this.#terminal) return;
      const thread = await conn.request(
        "thread/start",
        buildThreadStartParams({ ...this.#options, cwd: this.#protocolCwd, threadConfig }),
        {
          timeoutMs: this.#timeouts.threadStartMs,
          onError,
          // Ownership is adopted while the response is routed, so frames in the same chunk behind it are judged
          // against the owned thread.
          onResult: (result) => {
            const record = asRecord(result);
            const id = asRecord(record.thread).id;
            const model = typeof record.model === "string" ? record.model : null;
            if (typeof id === "string") this.#mapper.setThread(id, model ?? this.#options.model ?? null);
          },
        },
      );
      if (this.#terminal) return;
      const threadResult = asRecord(thread);
      const threadRecord = asRecord(threadResult.thread);
      const threadId = typeof threadRecord.id === "string" ? threadRecord.id : null;
      if (threadId === null) {
        this.#finish(
          this.#failedBody({
            source: "parse",
            message: "thread/start returned no thread id",
            line: excerpt(JSON.stringify(thread) ?? String(thread)),
          }),
        );
        return;
      }
      this.#emit({
        type: "session.started",
        threadId,
        model: this.#mapper.model,
        cwd: typeof threadResult.cwd === "string" ? threadResult.cwd : this.#protocolCwd,
        codexVersion: versionFromUserAgent(asRecord(init).userAgent),
        pid: proc.pid,
      });
      await conn.request(
        "turn/start",
        buildTurnStartParams(threadId, { ...this.#options, cwd: this.#protocolCwd }),
        {
          timeoutMs: this.#timeouts.turnStartMs,
          onError,
          onResult: (result) => {
            const id = asRecord(asRecord(result).turn).id;
            if (typeof id === "string") this.#mapper.setTurn(id);
          },
        },
      );
      if (this.#terminal) return;
      if (this.#cancelRequested) this.#onTurnIdKnown();
    } catch (error) {
      if (this.#terminal) return;
      if (error instanceof JsonRpcResponseError) {
        this.#finish(this.#refusedBody(error));
      } else if (error instanceof RequestTimeoutError) {
        this.#finish(
          this.#failedBody({
            source: "jsonrpc",
            method: error.method,
            code: null,
            message: `${error.method} stalled: no response within ${error.timeoutMs} ms; the process tree was killed`,
            data: null,
            timeout: { step: error.method, timeoutMs: error.timeoutMs },
          }),
        );
      } else if (error instanceof ConnectionClosedError) {
        // The transport-closed and exit handlers report the cause (exit code, stderr, spawn error).
      } else {
        this.#finish(
          this.#failedBody({
            source: "jsonrpc",
            method: "unknown",
            code: null,
            message: `unexpected error: ${(error as Error).message ?? String(error)}`,
            data: null,
          }),
        );
      }
    }
  }

  /**
   * States the user's own trust decision for the cwd in the thread config (read through `config/read`, so the
   * user's config file is never opened by Rennet), which keeps codex from persisting one into config.toml.
   */
  async #resolveThreadConfig(conn: JsonRpcConnection): Promise<Record<string, unknown>> {
    const cwd = this.#protocolCwd;
    const read = await conn.request(
      "config/read",
      { cwd, includeLayers: false },
      {
        timeoutMs: this.#timeouts.threadStartMs,
      },
    );
    const projects = asRecord(asRecord(read).config).projects;
    return trustOverride(cwd, decideTrust(cwd, projects));
  }

  /** A cancel that arrived before the turn id: now that it exists, interrupt (the kill already happened). */
  #onTurnIdKnown(): void {
    const { turnId, threadId } = this.#mapper;
    if (turnId !== null && threadId !== null) this.#sendInterrupt(threadId, turnId);
  }

  #onTurnEnded(end: TurnEnd): void {
    switch (end.status) {
      case "completed": {
        const finalMessage = this.#mapper.finalMessage;
        const check = this.#options.completionCheck?.(finalMessage);
        if (check && !check.ok) {
          this.#finish(this.#failedBody(check.failure));
          return;
        }
        const body = this.#terminalBody("completed", null);
        if (check?.ok) body.structuredOutput = check.value;
        this.#finish(body);
        return;
      }
      case "interrupted":
        if (!this.#cancelRequested) this.#cancelReason = "the turn was interrupted by codex";
        this.#finish(this.#cancelledBody("interrupted"));
        return;
      case "failed": {
        const error = end.error ?? this.#mapper.lastError;
        this.#finish(
          this.#failedBody({
            source: "turn",
            message: error?.message ?? "the turn failed without an error message",
            codexErrorInfo: error?.codexErrorInfo ?? null,
            additionalDetails: error?.additionalDetails ?? null,
          }),
        );
        return;
      }
      default:
        this.#finish(
          this.#failedBody({
            source: "turn",
            message: `turn/completed reported status ${JSON.stringify(end.status)}`,
            codexErrorInfo: null,
            additionalDetails: null,
          }),
        );
    }
  }

  #onExit(exit: ProcessExit): void {
    this.#exit = exit;
    if (this.#terminal) return;
    if (exit.type === "spawn-error") {
      this.#finish(
        this.#failedBody({
          source: "spawn",
          message: exit.message,
          errno: exit.errno,
          command: this.#codex?.command ?? "codex",
        }),
      );
      return;
    }
    // Give stdout a moment to deliver what codex wrote before it exited.
    const writeError = this.#transportClosed?.type === "write-error" ? this.#transportClosed.message : null;
    if (this.#transportClosed) this.#finishWithExit(exit, writeError);
    else this.#setTimer(500, () => this.#finishWithExit(exit, writeError));
  }

  #onTransportClosed(reason: TransportClosed): void {
    this.#transportClosed = reason;
    if (this.#terminal || reason.type === "local") return;
    const writeError = reason.type === "write-error" ? reason.message : null;
    if (this.#exit) {
      this.#finishWithExit(this.#exit, writeError);
      return;
    }
    const proc = this.#proc;
    const timer = setTimeout(() => this.#finishWithExit(this.#exit, writeError), 2_000);
    this.#timers.add(timer);
    void proc?.exit.then((exit) => {
      clearTimeout(timer);
      if (exit.type === "exited") this.#finishWithExit(exit, writeError);
    });
  }

  #finishWithExit(exit: ProcessExit | null, writeError: string | null): void {
    if (this.#terminal) return;
    if (exit?.type === "spawn-error") return; // reported by #onExit
    if (this.#cancelRequested) {
      // codex went away while being interrupted: the caller asked for this end
      this.#finish(this.#cancelledBody("killed"));
      return;
    }
    const code = exit?.type === "exited" ? exit.code : null;
    const signal = exit?.type === "exited" ? exit.signal : null;
    const how =
      exit === null
        ? "closed its output but did not exit"
        : signal !== null
          ? `was killed by ${signal}`
          : `exited with code ${code}`;
    const message = writeError
      ? `codex app-server stopped accepting input (${writeError}) and ${how} before the turn completed`
      : `codex app-server ${how} before the turn completed`;
    this.#finish(
      this.#failedBody({
        source: "exit",
        message,
        exitCode: code,
        signal,
        stderrTail: this.#proc?.stderrTail() ?? "",
      }),
    );
  }

  /**
   * The spawn for the chosen Codex. A discovered `CodexCommand` carries its launch mode (direct, node launcher,
   * Windows `.cmd`, WSL) and its locus: in WSL the protocol sees the distribution-native cwd.
   */
  #launchSpec(extraArgs: string[]): LaunchSpec {
    const codex = this.#codex;
    if (!codex)
      throw Object.assign(new Error("no Codex executable was given or discovered"), {
        code: "CODEX_UNAVAILABLE",
      });
    const baseEnv = this.#options.env ?? process.env;
    const args = ["app-server", ...extraArgs];
    if (isCodexCommand(codex)) {
      this.#protocolCwd = toLaunchCwd(codex, this.#cwd);
      return codexLaunchSpec(codex, args, { cwd: this.#cwd, baseEnv });
    }
    return {
      command: codex.command,
      args: [...(codex.prefixArgs ?? []), ...args],
      env: { ...baseEnv, ...codex.env },
      cwd: this.#cwd,
    };
  }

  #prepareFailure(error: unknown): Failure {
    const e = error as { code?: unknown; message?: unknown };
    const code = typeof e?.code === "string" ? e.code : undefined;
    const isOsError = code !== undefined && /^E[A-Z0-9]+$/.test(code);
    return {
      source: "spawn",
      message: `codex was not started: ${typeof e?.message === "string" ? e.message : String(error)}`,
      errno: isOsError ? code : null,
      command: this.#codex?.command ?? "codex",
      ...(code !== undefined && !isOsError ? { code } : {}),
    };
  }

  #setTimer(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  #emit(body: EventBody): HarnessEvent {
    const event = {
      seq: ++this.#seq,
      harness: "codex",
      sessionId: this.id,
      turnId: this.#mapper.turnId,
      at: this.#now().toISOString(),
      ...body,
    } as HarnessEvent;
    this.#channel.push(event);
    return event;
  }

  #terminalBody(outcome: TerminalOutcome, failure: Failure | null): TerminalBody {
    return {
      type: "terminal",
      outcome,
      finalMessage: this.#mapper.finalMessage,
      usage: this.#mapper.usage,
      model: this.#mapper.model,
      threadId: this.#mapper.threadId,
      failure,
      cancellation: null,
    };
  }

  #refusedBody(error: JsonRpcResponseError): TerminalBody {
    return this.#failedBody({
      source: "jsonrpc",
      method: error.method,
      code: error.rpcCode,
      message: `${error.method} was refused by codex: ${error.rpcMessage}`,
      data: error.data,
    });
  }

  #failedBody(failure: Failure): TerminalBody {
    return this.#terminalBody("failed", failure);
  }

  #cancelledBody(via: "interrupted" | "killed" | "before-turn"): TerminalBody {
    return {
      ...this.#terminalBody("cancelled", null),
      cancellation: { via, reason: describeReason(this.#cancelReason) },
    };
  }

  #finish(body: TerminalBody): void {
    if (this.#terminal) return;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#removeAbortListener?.();
    this.#prepareAbort.abort(new Error("the turn has ended"));
    // Whatever ended the turn, every tool.started is completed before the terminal frame.
    for (const closed of this.#mapper.closeOpenTools(undefined)) this.#emit(closed);
    this.#terminal = this.#emit(body) as TerminalEvent;
    void this.#cleanup();
  }

  async #cleanup(): Promise<void> {
    const terminal = this.#terminal as TerminalEvent;
    try {
      await this.#proc?.terminate();
    } catch {
      // terminate is best-effort by contract; a failure here must not hide the terminal outcome
    }
    this.#conn?.close();
    this.#channel.close();
    this.#resolveResult(terminal);
  }
}

function isCodexCommand(codex: CodexLaunchTarget | CodexCommand): codex is CodexCommand {
  return "launch" in codex && "locus" in codex && typeof (codex as CodexCommand).launch === "string";
}

/** `codex_cli_rs/0.171.0 (…)` → `0.171.0`. */
export function versionFromUserAgent(userAgent: unknown): string | null {
  if (typeof userAgent !== "string") return null;
  const match = /\/(\d+\.\d+\.\d+[^\s(]*)/.exec(userAgent);
  return match?.[1] ?? null;
}
