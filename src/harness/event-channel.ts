/**
 * An unbounded single-consumer async queue: `push` never blocks and nothing pushed is lost; `close` ends
 * iteration after the buffered items. When the consumer stops early (`break`), `onReturn` is called once.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  #buffer: T[] = [];
  #waiter: ((result: IteratorResult<T>) => void) | null = null;
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
    if (this.#waiter) {
      const waiter = this.#waiter;
      this.#waiter = null;
      waiter({ value: item, done: false });
    } else this.#buffer.push(item);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#waiter && this.#buffer.length === 0) {
      const waiter = this.#waiter;
      this.#waiter = null;
      waiter({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw new Error("this event stream can be iterated only once");
    this.#iterating = true;
    return {
      next: () => {
        const item = this.#buffer.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#closed || this.#returned) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      return: () => {
        if (!this.#returned) {
          this.#returned = true;
          this.#buffer = [];
          if (!this.#closed) this.#onReturn();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
