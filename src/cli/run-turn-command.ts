import { isRennetError } from "../errors.js";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../session/interrupt-grace.js";
import type { HarnessSession } from "../harness/session.js";
import type { McpPolicyValue } from "../mcp/mcp-policy.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { driveSession } from "./drive-session.js";
import type { EventRenderer } from "./event-renderer.js";
import { EXIT_CODES, exitCodeForTerminal } from "./exit-codes.js";
import { readPrompt } from "./read-prompt.js";
import { type SignalPhase, watchSignals } from "./signal-cancellation.js";
import type { TurnOptions } from "./turn-options.js";
import type { TerminalApprovalsFactory } from "./terminal-approvals.js";
import { UsageError } from "./usage-error.js";

/** What every turn command asks of its session, whatever the harness; each maps it to its client's call. */
export interface CliTurnCall {
  prompt: string;
  cwd: string;
  model?: string;
  signal: AbortSignal;
  turnMs: number | null;
  mcp: McpPolicyValue;
  /** False with `--keep-thread` or `--resume`. */
  ephemeral: boolean;
  resume?: string;
  images?: string[];
  trustProject?: true;
}

/** Starts a command's session on its client. */
export type TurnStarter = (call: CliTurnCall) => HarnessSession;

/**
 * Finds the command's agent executable and creates its client: resolves with how to start the session, rejects
 * with the harness's unavailable error (the CLI exits 3) or, once `signal` aborted, with anything.
 */
export type TurnOpener = (signal: AbortSignal) => Promise<TurnStarter>;

/** What one turn-running command (`codex run`, `claude exec`, …) supplies to {@link runTurnCommand}. */
export interface TurnCommand {
  /** `rennet codex run`, for messages. */
  command: string;
  /** The agent's executable as messages name it: `codex`, `claude`. */
  executable: string;
  promptArgument: string;
  options: TurnOptions;
  io: ResolvedCliIo;
  createRenderer(): EventRenderer;
  /** Each command loads only the client it needs. */
  open: TurnOpener;
  /** The terminal's approval prompts of `--ask` (loaded by the dispatch only for `--ask`). */
  askTerminal: TerminalApprovalsFactory;
}

/** What a terminal on stdin is told when the prompt is read from it (`-`). */
const READING_STDIN = `reading the prompt from stdin (end it with ${
  process.platform === "win32" ? "Ctrl-Z and Enter" : "Ctrl-D"
} on an empty line)`;

/**
 * The shared body of the turn-running commands of every harness: watch SIGINT and SIGTERM, choose the agent's
 * executable (exit 3 when none works), read the prompt, start the session, render it, and map the terminal
 * outcome to the exit code. A signal while the executable is being chosen stops discovery and every process it
 * started, and exits 130.
 */
export async function runTurnCommand(turn: TurnCommand): Promise<number> {
  const { io, options } = turn;
  if (options.ask) checkAskTerminal(io, turn.promptArgument, turn.command);
  // An empty prompt argument is a usage error before any process starts, discovery included.
  if (turn.promptArgument !== "-") await readPrompt(turn.promptArgument, io.stdin, { command: turn.command });
  const renderer = turn.createRenderer();
  let session: HarnessSession | null = null;
  const cancelTurn = (reason: string): void => session?.cancel(reason);
  const asking = options.ask ? turn.askTerminal(io, (line) => renderer.notice(line), cancelTurn) : null;
  let phase: SignalPhase = "finding";
  const cancellation = watchSignals(
    io.signals,
    (message) => renderer.notice(message),
    io.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS,
    turn.executable,
    () => phase,
  );
  try {
    let start: TurnStarter;
    try {
      start = await turn.open(cancellation.signal);
    } catch (error) {
      // no session exists yet, so there is no terminal event to print (as for exit 3)
      if (cancellation.signal.aborted) return EXIT_CODES.cancelled;
      throw error;
    }
    phase = "turn";
    // a person typing the prompt sees why nothing happens, and how to end it
    if (turn.promptArgument === "-" && io.isTTY.stdin) renderer.notice(READING_STDIN);
    let prompt: string;
    try {
      prompt = await readPrompt(turn.promptArgument, io.stdin, {
        command: turn.command,
        signal: cancellation.signal,
      });
    } catch (error) {
      if (!cancellation.signal.aborted) throw error;
      // cancelled while reading stdin: the already-aborted session below reports `cancelled` without spawning
      // (its prompt is never sent, but must pass the prompt check)
      prompt = "(cancelled before the prompt was read)";
    }
    renderer.begin();
    session = startSession(start, turn.command, {
      prompt,
      cwd: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      signal: cancellation.signal,
      turnMs: options.turnMs,
      mcp: options.mcp,
      ephemeral: options.ephemeral,
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      ...(options.images !== undefined ? { images: options.images } : {}),
      ...(options.trustProject ? { trustProject: true } : {}),
      ...(asking ? { approvals: asking.approvals } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const terminal = await driveSession(session, renderer, io.stdout, () => (phase = "ended"));
    return exitCodeForTerminal(terminal);
  } finally {
    asking?.dispose();
    renderer.end();
    cancellation.dispose();
  }
}

/**
 * Starts the session. The library refuses a call's input before anything starts by throwing a `RennetError`;
 * the command line gave that input, so it is a usage error (exit 2), whatever value the flags' own checks let by.
 */
function startSession(start: TurnStarter, command: string, call: CliTurnCall): HarnessSession {
  try {
    return start(call);
  } catch (error) {
    if (isRennetError(error)) throw new UsageError(error.message, command);
    throw error;
  }
}

/** `--ask` reads answers from the terminal: stdin and stderr must be one, and stdin not the prompt's source. */
function checkAskTerminal(io: ResolvedCliIo, promptArgument: string, command: string): void {
  if (!io.isTTY.stdin || !io.isTTY.stderr)
    throw new UsageError(
      "--ask needs a terminal: it asks on stderr and reads your answers from stdin, and " +
        `${!io.isTTY.stdin ? "stdin" : "stderr"} is not a terminal. Without a person to ask, decide approvals ` +
        "in code with the library's `approvals: { onRequest }` (docs/approvals.md)",
      command,
    );
  if (promptArgument === "-")
    throw new UsageError(
      "--ask reads your answers from stdin: give the prompt as an argument, not `-`",
      command,
    );
}
