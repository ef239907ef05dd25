/**
 * Promises that resolve once a growing count reaches a target: a loopback server's "wait until N requests came".
 * Each waiter settles once; `close` rejects every pending one; an aborted signal rejects with its reason.
 */
export class CountWaiters<T> {
  readonly #count: () => number;
  readonly #value: () => T;
  readonly #pending = new Set<{ target: number; settle: (failure?: { error: unknown }) => void }>();
  #closedError: ((target: number) => unknown) | null = null;

  /** `count` reads the current count; `value` is what a satisfied waiter resolves with. */
  constructor(count: () => number, value: () => T) {
    this.#count = count;
    this.#value = value;
  }

  /** Resolves with `value()` once `count() >= target`. */
  wait(target: number, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (this.#count() >= target) return resolve(this.#value());
      if (this.#closedError) return reject(this.#closedError(target));
      const onAbort = (): void => waiter.settle({ error: signal?.reason });
      const waiter = {
        target,
        settle: (failure?: { error: unknown }) => {
          this.#pending.delete(waiter);
          signal?.removeEventListener("abort", onAbort);
          if (failure) reject(failure.error);
          else resolve(this.#value());
        },
      };
      this.#pending.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Call after the count grew: resolves every waiter whose target is reached. */
  notify(): void {
    const count = this.#count();
    for (const waiter of [...this.#pending]) if (count >= waiter.target) waiter.settle();
  }

  /** Rejects every pending waiter, and every later one, with `error(target)`. */
  close(error: (target: number) => unknown): void {
    this.#closedError = error;
    for (const waiter of [...this.#pending]) waiter.settle({ error: error(waiter.target) });
  }
}
