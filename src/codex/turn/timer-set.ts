/** The timers of one owner, cleared together when it ends. */
export class TimerSet {
  readonly #timers = new Set<NodeJS.Timeout>();

  /** Runs `fn` once after `ms` unless {@link clear} runs first. */
  set(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
