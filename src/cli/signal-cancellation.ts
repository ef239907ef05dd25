import type { CliSignal, SignalSource } from "./cli-io.js";

export interface SignalCancellation {
  /** Aborted on the first SIGINT, SIGTERM or SIGHUP, with reason `received SIGINT` (or the other name). */
  readonly signal: AbortSignal;
  /** Removes the signal listeners. Idempotent. */
  dispose(): void;
}

/**
 * The one SIGINT/SIGTERM → abort mechanism of the CLI: the first signal aborts with `reason(signal)`; every
 * signal (first or not) is reported to `onSignal`. Listeners are removed by `dispose()`.
 */
export function abortOnSignals(
  source: SignalSource,
  reason: (signal: CliSignal) => unknown,
  onSignal: (signal: CliSignal, first: boolean) => void = () => {},
): SignalCancellation {
  const controller = new AbortController();
  const removers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) =>
    source.on(signal, () => {
      const first = !controller.signal.aborted;
      onSignal(signal, first);
      if (first) controller.abort(reason(signal));
    }),
  );
  let disposed = false;
  return {
    signal: controller.signal,
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const remove of removers) remove();
    },
  };
}

/** Where a turn command is when a signal comes: finding the agent's executable, in the turn, or past its end. */
export type SignalPhase = "finding" | "turn" | "ended";

/**
 * Turns SIGINT/SIGTERM/SIGHUP into the cancellation of a turn. The first signal aborts (the session then sends
 * the agent's interrupt, waits at most the interrupt grace and kills the process tree; while the executable is
 * still being found, discovery stops its probes and no turn starts). Later signals do not skip that bounded
 * wait — leaving early could orphan the agent's commands — they only print `notice` again. Once the turn has
 * ended, a signal changes nothing (the outcome stands, the tree is being ended) and the notice says so.
 * `executable` names the agent in the notices (`codex`, `claude`).
 */
export function watchSignals(
  source: SignalSource,
  notice: (message: string) => void,
  graceMs: number,
  executable: string,
  phase: () => SignalPhase = () => "turn",
): SignalCancellation {
  const graceText = `${graceMs / 1000} s`;
  const message = (signal: CliSignal, first: boolean): string => {
    switch (phase()) {
      case "ended":
        return `${signal}: the turn has ended; its processes are being stopped, the exit follows when they are gone`;
      case "finding":
        return `${signal}: cancelled while finding ${executable}; no turn was started, its probes are being stopped`;
      case "turn":
        return first
          ? `${signal}: cancelling the turn (${executable} gets up to ${graceText} to stop, then its process tree is killed)…`
          : `${signal}: already cancelling; waiting (at most ${graceText} plus cleanup) until ${executable}'s processes are gone`;
    }
  };
  return abortOnSignals(
    source,
    (signal) => `received ${signal}`,
    (signal, first) => notice(message(signal, first)),
  );
}
