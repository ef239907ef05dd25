/**
 * Lookups shared by the sessions of one client (which Claude Code runs in a working directory): the first
 * session to ask starts it, later ones join it, and the answer is kept. Each session waits under its own signal,
 * so one that ends (cancelled, at its deadline) stops waiting and rejects with its own reason while the others
 * wait on; the lookup itself is stopped only when every session waiting for it has left. A failed or stopped
 * lookup is not kept: the next session starts another.
 */
interface Lookup<T> {
  answer: Promise<T>;
  controller: AbortController;
  waiting: number;
  settled: boolean;
}

export class SharedLookups<T> {
  readonly #lookups = new Map<string, Lookup<T>>();

  /** The answer for `key`, started with `start` unless kept or under way; rejects with `signal.reason` on abort. */
  get(key: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const lookup = this.#lookups.get(key) ?? this.#start(key, start);
    if (lookup.settled) return lookup.answer;
    lookup.waiting++;
    return new Promise<T>((resolve, reject) => {
      let present = true;
      const leave = (): boolean => {
        if (!present) return false;
        present = false;
        lookup.waiting--;
        return true;
      };
      const onAbort = (): void => {
        leave();
        reject(signal.reason as Error);
        if (lookup.waiting > 0 || lookup.settled) return;
        this.#forget(key, lookup);
        lookup.controller.abort(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      lookup.answer.then(
        (value) => {
          signal.removeEventListener("abort", onAbort);
          if (leave()) resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          if (leave()) reject(error as Error);
        },
      );
    });
  }

  /** How many sessions wait for the lookup under `key` now (0 when none is under way or kept). */
  waitingFor(key: string): number {
    return this.#lookups.get(key)?.waiting ?? 0;
  }

  #start(key: string, start: (signal: AbortSignal) => Promise<T>): Lookup<T> {
    const controller = new AbortController();
    const lookup: Lookup<T> = { answer: start(controller.signal), controller, waiting: 0, settled: false };
    this.#lookups.set(key, lookup);
    lookup.answer.then(
      () => (lookup.settled = true),
      () => {
        lookup.settled = true;
        this.#forget(key, lookup);
      },
    );
    return lookup;
  }

  #forget(key: string, lookup: Lookup<T>): void {
    if (this.#lookups.get(key) === lookup) this.#lookups.delete(key);
  }
}
