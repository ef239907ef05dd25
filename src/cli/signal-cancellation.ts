import type { CliSignal, SignalSource } from "./cli-io.js";

export interface SignalCancellation {
  /** Aborted on the first SIGINT/SIGTERM, with reason `received SIGINT` (or SIGTERM). */
  readonly signal: AbortSignal;
  /** Removes the signal listeners. Idempotent. */
  dispose(): void;
}

/**
 * Turns SIGINT/SIGTERM into an abort. The first signal aborts (the session then sends `turn/interrupt`, waits
 * at most the interrupt grace and kills the process tree). Later signals do not skip that bounded wait —
 * leaving early could orphan codex's commands — they only print `notice` again.
 */
export function watchSignals(
  source: SignalSource,
  notice: (message: string) => void,
  graceMs: number,
): SignalCancellation {
  const controller = new AbortController();
  const graceText = `${graceMs / 1000} s`;
  const onSignal = (signal: CliSignal): void => {
    if (!controller.signal.aborted) {
      notice(
        `${signal}: cancelling the turn (codex gets up to ${graceText} to stop, then its process tree is killed)…`,
      );
      controller.abort(`received ${signal}`);
    } else {
      notice(
        `${signal}: already cancelling; waiting (at most ${graceText} plus cleanup) until codex's processes are gone`,
      );
    }
  };
  const removers = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    source.on(signal, () => onSignal(signal)),
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
