/**
 * When an {@link EventChannel}'s unread queue is full: `onFull(true)` once the queue reaches `highWater`
 * unread items while a consumer reads it (from its first iteration or `readBuffered` on: a queue nobody reads
 * is never full, so a producer that waits for a reader never waits for good), `onFull(false)` once the consumer
 * has read it down to `lowWater` (or stopped iterating). `push` itself never blocks: the producer decides what
 * to do with the signal (pause its source).
 */
import { RennetError } from "../errors.js";
export interface ChannelFlow {
  highWater: number;
  lowWater: number;
  /** Called synchronously, only on a change, from `push` (true) or from the consumer's `next`/`return` (false). */
  onFull(full: boolean): void;
}

/** Unread events at which a turn stops reading its child's stdout. */
export const EVENT_QUEUE_HIGH_WATER = 1024;
/** Unread events at which reading resumes. */
export const EVENT_QUEUE_LOW_WATER = 256;

/**
 * A single-consumer async queue: `push` never blocks and nothing pushed is lost; `close` ends iteration after the
 * buffered items. When the consumer stops early (`break`), `onReturn` is called once. With a {@link ChannelFlow}
 * the channel tells its producer when the unread queue is full; the queue itself stays unbounded.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  #buffer: T[] = [];
  /** Index of the oldest unread item in `#buffer` (read items are dropped in batches, not one `shift` each). */
  #head = 0;
  /** Pending `next()` calls, oldest first (a consumer may call `next()` again before the last one settled). */
  #waiters: ((result: IteratorResult<T>) => void)[] = [];
  #closed = false;
  #iterating = false;
  /** Whether a consumer has begun reading (iteration or `readBuffered`): only then is the queue ever full. */
  #consuming = false;
  #returned = false;
  #full = false;
  #peak = 0;
  readonly #onReturn: () => void;
  readonly #flow: ChannelFlow | null;

  constructor(onReturn: () => void = () => {}, flow: ChannelFlow | null = null) {
    this.#onReturn = onReturn;
    this.#flow = flow;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Items pushed and not yet read. */
  get length(): number {
    return this.#buffer.length - this.#head;
  }

  /** The largest {@link length} so far. */
  get peakLength(): number {
    return this.#peak;
  }

  push(item: T): void {
    if (this.#closed || this.#returned) return;
    if (this.#waiters.length > 0) {
      (this.#waiters.shift() as (result: IteratorResult<T>) => void)({ value: item, done: false });
      return;
    }
    this.#buffer.push(item);
    const length = this.length;
    if (length > this.#peak) this.#peak = length;
    if (this.#consuming) this.#checkFull();
  }

  /** Signals full when a consumer reads and the unread queue has reached the high-water mark. */
  #checkFull(): void {
    if (this.#flow && !this.#full && !this.#returned && this.length >= this.#flow.highWater)
      this.#setFull(true);
  }

  /**
   * Takes every item pushed and not yet read, oldest first, without waiting; empty when there is none (or after
   * the consumer stopped). For a consumer that handles what is already there in one go rather than one `await`
   * per item; mixed with iteration it keeps the order. With a {@link ChannelFlow}, emptying the queue signals
   * not full.
   */
  readBuffered(): T[] {
    this.#consuming = true;
    if (this.length === 0) return [];
    const items = this.#head === 0 ? this.#buffer : this.#buffer.slice(this.#head);
    this.#buffer = [];
    this.#head = 0;
    if (this.#full) this.#setFull(false);
    return items;
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

  #take(): T {
    const item = this.#buffer[this.#head] as T;
    this.#buffer[this.#head] = undefined as T;
    this.#head++;
    if (this.#head === this.#buffer.length) {
      this.#buffer = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#buffer.length) {
      this.#buffer = this.#buffer.slice(this.#head);
      this.#head = 0;
    }
    if (this.#full && this.#flow && this.length <= this.#flow.lowWater) this.#setFull(false);
    return item;
  }

  #setFull(full: boolean): void {
    this.#full = full;
    this.#flow?.onFull(full);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw eventsIteratedTwice();
    this.#iterating = this.#consuming = true;
    this.#checkFull();
    return {
      next: () => {
        if (this.length > 0) return Promise.resolve({ value: this.#take(), done: false });
        if (this.#closed || this.#returned) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiters.push(resolve);
        });
      },
      return: () => {
        if (!this.#returned) {
          this.#returned = true;
          this.#buffer = [];
          this.#head = 0;
          this.#endWaiters();
          if (!this.#closed) this.#onReturn();
          if (this.#full) this.#setFull(false);
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/** What a second iteration of a session's event stream throws (`EVENTS_ITERATED_TWICE`). */
export function eventsIteratedTwice(): RennetError {
  return new RennetError(
    "EVENTS_ITERATED_TWICE",
    "this event stream can be iterated only once (each event is delivered once): keep the events you need " +
      "while iterating, or read `session.result` for the terminal frame",
  );
}

/**
 * The `readBuffered` of `events` when it has one (an {@link EventChannel}, or a stream that forwards to one, as a
 * session's does), else null.
 */
export function bufferedReader<T>(events: AsyncIterable<T>): (() => T[]) | null {
  const reader = (events as { readBuffered?: unknown }).readBuffered;
  return typeof reader === "function" ? () => (reader as () => T[]).call(events) : null;
}
