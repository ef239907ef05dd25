import { RennetError, isRennetError } from "../../errors.js";
import { onAbort } from "../../harness/on-abort.js";
import type { RequestTimeoutError } from "../../jsonl/errors.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import { JsonRpcConnection, type ConnectionHandlers } from "../../jsonl/json-rpc-connection.js";
import type { Launcher, LaunchSpec } from "../../process/stdio-child.js";
import { ChildSession, type ChildGone } from "../../session/child-session.js";
import type { ReadThrottle } from "../../session/read-throttle.js";
import { TimerSet } from "../../session/timer-set.js";
import type { NotCodexError } from "../not-codex-error.js";
import type { JsonRpcResponseError } from "../../jsonl/errors.js";
import {
  isStateDbRace,
  STATE_DB_RACE_STARTS,
  stateDbRaceRetryDelayMs,
  type StateDbRaceRestart,
} from "../versions/state-db-race.js";
import { AppServerNotReadyError, type AppServerNotReady } from "./app-server-not-ready.js";
import { performHandshake, type InitializeAnswer } from "./handshake.js";

/**
 * After `initialize` stalled: how long a codex whose stdin was ended may take to exit and say why. Codex 0.72
 * and 0.80 with a config.toml they cannot load answer nothing and explain themselves only at stdin EOF.
 */
const STALLED_HANDSHAKE_EXIT_MS = 1_000;

/** What the owner does with the frames of the current child (those of a retired child are never handed on). */
export type AppServerHandlers = Omit<ConnectionHandlers, "closed">;

export interface AppServerSessionOptions {
  /** `codex app-server …` as one spawn (see `appServerLaunch`). */
  spec: LaunchSpec;
  launcher: Launcher;
  /** Deadline of the `initialize` answer. */
  initializeTimeoutMs: number;
  /** Declare the experimental API in `initialize` (app tools need it). Default false. */
  experimentalApi?: boolean;
  /** Default: notifications, strays and invalid lines ignored; every server request declined. */
  handlers?: AppServerHandlers;
  /** Aborting ends every tree at once; `ready`, if still pending, rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** A start lost the state-database race and is repeated after `delayMs`. */
  onRestart?(restart: StateDbRaceRestart): void;
  /** The current child went away after `ready` resolved (before that, `ready` rejects or the start is repeated). */
  onGone?(gone: ChildGone): void;
  /** Pauses reading while the owner's consumer is behind. */
  throttle?: ReadThrottle;
  /** The owner's timers (every wait of the session uses them); default: the session's own. */
  timers?: TimerSet;
  /** For the restart waits' spread; default `Math.random`. */
  random?: () => number;
}

/**
 * One started `codex app-server`, up to the point where it can be asked anything: the one spawn (a
 * {@link ChildSession}), the JSON-RPC connection, `initialize`/`initialized`, the restart of a start that lost
 * the state-database race (up to {@link STATE_DB_RACE_STARTS} starts, each lost child's tree ended), the bounded
 * wait for a stalled codex's last words, the abort wiring and the end of every tree it started.
 * `ready` resolves with the `initialize` answer, or rejects with {@link AppServerNotReadyError}, with
 * `signal.reason` on abort, or with `SESSION_ENDED` when `end()` came first.
 */
export class AppServerSession {
  readonly ready: Promise<InitializeAnswer>;
  readonly #options: AppServerSessionOptions;
  readonly #timers: TimerSet;
  readonly #lifetime = new AbortController();
  #resolveReady!: (answer: InitializeAnswer) => void;
  #rejectReady!: (error: unknown) => void;
  /** `ready` has settled; `#initialized` when it resolved. */
  #settled = false;
  #initialized = false;
  #child: ChildSession | null = null;
  #connection: JsonRpcConnection | null = null;
  #starts = 0;
  /** Set when the current child's `initialize` got no answer in time. */
  #stalled: RequestTimeoutError | null = null;
  readonly #retired: Promise<void>[] = [];
  #ending: Promise<void> | null = null;

  /** Spawns codex now, unless `signal` is already aborted (then `ready` rejects with its reason). Never throws. */
  static open(options: AppServerSessionOptions): AppServerSession {
    return new AppServerSession(options);
  }

  private constructor(options: AppServerSessionOptions) {
    this.#options = options;
    this.#timers = options.timers ?? new TimerSet();
    this.ready = new Promise<InitializeAnswer>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => undefined);
    const signal = options.signal;
    if (signal?.aborted) {
      this.#notReady(signal.reason);
      return;
    }
    if (signal) onAbort(signal, () => this.#abort(signal.reason), this.#lifetime.signal);
    this.#start();
  }

  /** The current child's connection. */
  get connection(): JsonRpcConnection {
    if (this.#connection === null)
      throw new RennetError("INTERNAL_ERROR", "the app-server was never started");
    return this.#connection;
  }

  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Whether the current child has exited or closed its output. */
  get departing(): boolean {
    return this.#child?.departure.departing ?? false;
  }

  stderrTail(): string {
    return this.#child?.stderrTail() ?? "";
  }

  /**
   * Ends every tree this session started (the current child's and those of lost starts), then the connection.
   * Idempotent; never rejects.
   */
  end(options?: { graceMs?: number }): Promise<void> {
    this.#ending ??= this.#end(options);
    return this.#ending;
  }

  async #end(options: { graceMs?: number } | undefined): Promise<void> {
    this.#lifetime.abort();
    this.#notReady(new RennetError("SESSION_ENDED", "the app-server session was ended before it was ready"));
    await Promise.all([...this.#retired, this.#child?.end(options)]);
    this.#connection?.close();
    if (this.#options.timers === undefined) this.#timers.close();
  }

  #start(): void {
    if (this.#ending !== null) return;
    const start = ++this.#starts;
    this.#stalled = null;
    const child = ChildSession.start({
      launcher: this.#options.launcher,
      spec: this.#options.spec,
      timers: this.#timers,
      ...(this.#options.throttle ? { throttle: this.#options.throttle } : {}),
      onGone: (gone) => {
        if (start === this.#starts) this.#childGone(gone);
      },
    });
    this.#child = child;
    const connection = (this.#connection = this.#connect(child, start));
    // a microtask later: an in-memory peer may answer within the write, and no handler may run before the
    // owner holds the session
    queueMicrotask(() => void this.#handshake(connection, start));
  }

  /** The connection to child number `start`; its frames reach the handlers only while it is the current child. */
  #connect(child: ChildSession, start: number): JsonRpcConnection {
    const handlers = this.#options.handlers ?? declineAll(() => this.#connection);
    const current = (): boolean => start === this.#starts;
    return new JsonRpcConnection(child.transport, {
      notification: (frame) => {
        if (current()) handlers.notification(frame);
      },
      request: (frame) => {
        if (current()) handlers.request(frame);
      },
      stray: (frame, why) => {
        if (current()) handlers.stray(frame, why);
      },
      invalid: (message, line) => {
        if (current()) handlers.invalid(message, line);
      },
      closed: () => {},
    });
  }

  async #handshake(connection: JsonRpcConnection, start: number): Promise<void> {
    try {
      const answer = await performHandshake(connection, {
        timeoutMs: this.#options.initializeTimeoutMs,
        experimentalApi: this.#options.experimentalApi === true,
      });
      if (start === this.#starts && !this.#settled) {
        this.#settled = true;
        this.#initialized = true;
        this.#resolveReady(answer);
      }
    } catch (error) {
      if (start !== this.#starts || this.#settled) return;
      // a child already going away is reported by its departure (exit code, signal, stderr), not the request
      if (isRennetError(error, "CONNECTION_CLOSED") || this.departing) return;
      if (isRennetError(error, "REQUEST_TIMEOUT")) {
        // codex may explain itself only at stdin EOF: the failure waits for its departure (bounded)
        this.#stalled = error as RequestTimeoutError;
        this.#child?.endInputWithin(STALLED_HANDSHAKE_EXIT_MS);
      } else if (isRennetError(error, "JSONRPC_ERROR")) {
        this.#notReady(
          new AppServerNotReadyError({ kind: "refused", refusal: error as JsonRpcResponseError }),
        );
      } else if (isRennetError(error, "NOT_CODEX")) {
        this.#notReady(new AppServerNotReadyError({ kind: "malformed", answer: error as NotCodexError }));
      } else {
        this.#notReady(error);
      }
    }
  }

  #childGone(gone: ChildGone): void {
    if (this.#ending !== null) return;
    if (this.#initialized) this.#options.onGone?.(gone);
    if (this.#settled) return;
    if (this.#stalled) {
      const reason: AppServerNotReady = {
        kind: "stalled",
        gone,
        timeout: this.#stalled,
        stderrTail: gone.stderrTail,
      };
      this.#notReady(new AppServerNotReadyError(reason));
    } else if (gone.exit?.type === "spawn-error") {
      this.#notReady(new AppServerNotReadyError({ kind: "spawn", gone }));
    } else if (!this.#restartAfterStateDbRace(gone)) {
      this.#notReady(new AppServerNotReadyError({ kind: "exited", gone }));
    }
  }

  /**
   * A child that exited before answering `initialize` because another codex was migrating the same state
   * database is replaced by a new one after a short randomised wait; nothing had been asked of it but
   * `initialize`. Returns whether it was.
   */
  #restartAfterStateDbRace(gone: ChildGone): boolean {
    const exit = gone.exit;
    if (exit?.type !== "exited" || this.#starts >= STATE_DB_RACE_STARTS) return false;
    if (!isStateDbRace(gone.stderrTail)) return false;
    const child = this.#child;
    if (child) this.#retired.push(child.end());
    this.#connection?.close();
    const delayMs = stateDbRaceRetryDelayMs(this.#starts, this.#options.random);
    const restart = { exitCode: exit.code, signal: exit.signal, stderrTail: gone.stderrTail, delayMs };
    this.#options.onRestart?.({ ...restart, nextStart: this.#starts + 1 });
    this.#timers.set(delayMs, () => this.#start());
    return true;
  }

  #abort(reason: unknown): void {
    this.#notReady(reason);
    void this.end();
  }

  #notReady(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#rejectReady(error);
  }
}

/** Handlers that ignore every notification and decline every server request. */
function declineAll(connection: () => JsonRpcConnection | null): AppServerHandlers {
  return {
    notification: () => {},
    request: (frame) => {
      connection()?.respondError(
        frame.id,
        JSON_RPC_CODES.methodNotFound,
        `rennet does not handle ${frame.method}`,
      );
    },
    stray: () => {},
    invalid: () => {},
  };
}
