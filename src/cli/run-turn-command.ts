import { createCodex, type CodexCallOptions, type CodexClient } from "../codex/codex-client.js";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../codex/turn-runner.js";
import type { HarnessSession } from "../harness/session.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { resolveCodexTarget } from "./codex-target.js";
import { driveSession } from "./drive-session.js";
import type { EventRenderer } from "./event-renderer.js";
import { exitCodeForOutcome } from "./exit-codes.js";
import { readPrompt } from "./read-prompt.js";
import { watchSignals } from "./signal-cancellation.js";
import type { TurnOptions } from "./turn-options.js";
import { CodexUnavailableError } from "../codex/discovery/errors.js";

/** What one turn-running command (`codex run`, `codex exec`) supplies to {@link runTurnCommand}. */
export interface TurnCommand {
  /** `rennet codex run`, for messages. */
  command: string;
  promptArgument: string;
  options: TurnOptions;
  io: ResolvedCliIo;
  createRenderer(): EventRenderer;
  /** Starts the session with the call options every command shares. */
  start(client: CodexClient, call: CodexCallOptions): HarnessSession;
}

/**
 * The shared body of the turn-running commands: choose the Codex (exit 3 when none works), watch SIGINT and
 * SIGTERM, read the prompt, start the session, render it, and map the terminal outcome to the exit code.
 */
export async function runTurnCommand(turn: TurnCommand): Promise<number> {
  const { io, options } = turn;
  // An empty prompt argument is a usage error before any process starts, discovery included.
  if (turn.promptArgument !== "-") await readPrompt(turn.promptArgument, io.stdin, { command: turn.command });
  const resolution = await resolveCodexTarget({
    codexBin: options.codexBin,
    env: io.env,
    cwd: io.cwd,
    turnCwd: options.cwd,
    // a test's injected launcher decides what runs: no discovery
    skipDiscovery: io.launcher !== undefined,
  });
  if (resolution.type === "unavailable")
    throw new CodexUnavailableError(resolution.report, resolution.message);

  const renderer = turn.createRenderer();
  const cancellation = watchSignals(
    io.signals,
    (message) => renderer.notice(message),
    io.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS,
  );
  try {
    let prompt: string;
    try {
      prompt = await readPrompt(turn.promptArgument, io.stdin, {
        command: turn.command,
        signal: cancellation.signal,
      });
    } catch (error) {
      if (!cancellation.signal.aborted) throw error;
      // cancelled while reading stdin: the already-aborted session below reports `cancelled` without spawning
      prompt = "";
    }
    const client = createCodex({
      codex: resolution.target,
      env: io.env,
      ...(io.launcher ? { launcher: io.launcher } : {}),
      ...(io.interruptGraceMs !== undefined ? { interruptGraceMs: io.interruptGraceMs } : {}),
    });
    renderer.begin();
    const session = turn.start(client, {
      prompt,
      cwd: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      signal: cancellation.signal,
      timeouts: { turnMs: options.turnMs },
      mcp: options.mcp,
      ephemeral: options.ephemeral,
    });
    const terminal = await driveSession(session, renderer, io.stdout);
    return exitCodeForOutcome(terminal.outcome);
  } finally {
    renderer.end();
    cancellation.dispose();
  }
}
