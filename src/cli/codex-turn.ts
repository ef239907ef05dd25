import type { CodexCallOptions } from "../codex/client/call-options.js";
import type { CodexClientOptions } from "../codex/client/client-options.js";
import type { HarnessSession } from "../harness/session.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { cliCodexTarget, resolveCliCodex } from "./codex-target.js";
import type { CliTurnCall, TurnOpener } from "./run-turn-command.js";
import type { TurnOptions } from "./turn-options.js";

/** Creates a Codex client with `options` and returns how to start a session on it. */
export type CodexClientStarter = (options: CodexClientOptions) => (call: CodexCallOptions) => HarnessSession;

/**
 * The opener of a Codex turn command: the Codex of `--codex-bin` or discovery (exit 3 when none works), a client
 * made by `makeClient` on it, and each call with the Codex-only flags (`--reasoning-summary`) added.
 */
export function openCodexTurn(
  io: ResolvedCliIo,
  options: TurnOptions,
  makeClient: CodexClientStarter,
): TurnOpener {
  const target = cliCodexTarget(io, options.bin);
  return async (signal) => {
    const codex = await resolveCliCodex(target, options.cwd, signal);
    const start = makeClient({ ...target, codex });
    return (call) => start(codexCall(call, options));
  };
}

/** The library call of a command line's turn. Pure. */
function codexCall(call: CliTurnCall, options: TurnOptions): CodexCallOptions {
  const { turnMs, ...rest } = call;
  return {
    ...rest,
    timeouts: { turnMs },
    ...(options.reasoningSummary !== undefined ? { reasoningSummary: options.reasoningSummary } : {}),
  };
}
