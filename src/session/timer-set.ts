/** The timers of one owner, cleared together when it ends. */
export class TimerSet {
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  /**
   * Runs `fn` once after `ms` unless {@link close} runs first. Does nothing once closed: a step that ends the
   * owner synchronously (an in-memory peer answering at once) must not leave a timer set after it behind.
   */
  set(ms: number, fn: () => void): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  /** Clears every timer and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
