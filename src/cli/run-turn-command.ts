import type { CodexCallOptions } from "../codex/client/call-options.js";
import type { CodexClientOptions } from "../codex/client/client-options.js";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../codex/turn/turn-runner-options.js";
import type { HarnessSession } from "../harness/session.js";
import type { ResolvedCodex } from "../codex/launch/codex-launch.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { cliCodexTarget, resolveCliCodex } from "./codex-target.js";
import { driveSession } from "./drive-session.js";
import type { EventRenderer } from "./event-renderer.js";
import { EXIT_CODES, exitCodeForTerminal } from "./exit-codes.js";
import { readPrompt } from "./read-prompt.js";
import { watchSignals } from "./signal-cancellation.js";
import type { TurnOptions } from "./turn-options.js";
import { terminalApprovals } from "./terminal-approvals.js";
import { UsageError } from "./usage-error.js";

/** Starts a command's session on its client, with the call options every command shares. */
export type TurnStarter = (call: CodexCallOptions) => HarnessSession;

/** What one turn-running command (`codex run`, `codex exec`) supplies to {@link runTurnCommand}. */
export interface TurnCommand {
  /** `rennet codex run`, for messages. */
  command: string;
  promptArgument: string;
  options: TurnOptions;
  io: ResolvedCliIo;
  createRenderer(): EventRenderer;
  /** Creates the client with `options` (the Codex already resolved); each command loads only the client it needs. */
  open(options: CodexClientOptions): TurnStarter;
}

/**
 * The shared body of the turn-running commands: watch SIGINT and SIGTERM, choose the Codex (exit 3 when none
 * works), read the prompt, start the session, render it, and map the terminal outcome to the exit code. A signal
 * while Codex is being chosen stops discovery and every process it started, and exits 130.
 */
export async function runTurnCommand(turn: TurnCommand): Promise<number> {
  const { io, options } = turn;
  if (options.ask) checkAskTerminal(io, turn.promptArgument, turn.command);
  // An empty prompt argument is a usage error before any process starts, discovery included.
  if (turn.promptArgument !== "-") await readPrompt(turn.promptArgument, io.stdin, { command: turn.command });
  const target = cliCodexTarget(io, options.codexBin);
  const renderer = turn.createRenderer();
  const asking = options.ask ? terminalApprovals(io, (line) => renderer.notice(line)) : null;
  let turnEnded = false;
  const cancellation = watchSignals(
    io.signals,
    (message) => renderer.notice(message),
    io.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS,
    () => turnEnded,
  );
  try {
    let codex: ResolvedCodex;
    try {
      codex = await resolveCliCodex(target, options.cwd, cancellation.signal);
    } catch (error) {
      if (cancellation.signal.aborted) return EXIT_CODES.cancelled;
      throw error;
    }
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
    const start = turn.open({ ...target, codex });
    const session = start({
      prompt,
      cwd: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      signal: cancellation.signal,
      timeouts: { turnMs: options.turnMs },
      mcp: options.mcp,
      ephemeral: options.ephemeral,
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      ...(options.images !== undefined ? { images: options.images } : {}),
      ...(options.reasoningSummary !== undefined ? { reasoningSummary: options.reasoningSummary } : {}),
      ...(options.trustProject ? { trustProject: true } : {}),
      ...(asking ? { approvals: asking.approvals } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const terminal = await driveSession(session, renderer, io.stdout, () => (turnEnded = true));
    return exitCodeForTerminal(terminal);
  } finally {
    asking?.dispose();
    renderer.end();
    cancellation.dispose();
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
