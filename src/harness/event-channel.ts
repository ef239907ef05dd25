/**
 * An unbounded single-consumer async queue: `push` never blocks and nothing pushed is lost; `close` ends
 * iteration after the buffered items. When the consumer stops early (`break`), `onReturn` is called once.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  #buffer: T[] = [];
  /** Pending `next()` calls, oldest first (a consumer may call `next()` again before the last one settled). */
  #waiters: ((result: IteratorResult<T>) => void)[] = [];
  #closed = false;
  #iterating = false;
  #returned = false;
  readonly #onReturn: () => void;

  constructor(onReturn: () => void = () => {}) {
    this.#onReturn = onReturn;
  }

  get closed(): boolean {
    return this.#closed;
  }

  push(item: T): void {
    if (this.#closed || this.#returned) return;
    const waiter = this.#waiters.shift();
    if (waiter) waiter({ value: item, done: false });
    else this.#buffer.push(item);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#endWaiters();
  }

  /** Settles every pending `next()` with done (waiters only exist while the buffer is empty). */
  #endWaiters(): void {
    for (const waiter of this.#waiters.splice(0)) waiter({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw new Error("this event stream can be iterated only once");
    this.#iterating = true;
    return {
      next: () => {
        if (this.#buffer.length > 0)
          return Promise.resolve({ value: this.#buffer.shift() as T, done: false });
        if (this.#closed || this.#returned) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiters.push(resolve);
        });
      },
      return: () => {
        if (!this.#returned) {
          this.#returned = true;
          this.#buffer = [];
          this.#endWaiters();
          if (!this.#closed) this.#onReturn();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
