import { EVENT_QUEUE_HIGH_WATER, EVENT_QUEUE_LOW_WATER, EventChannel } from "../harness/event-channel.js";
import type { HarnessEvent } from "../harness/events.js";
import type { Transport } from "../jsonl/transport.js";

/**
 * Backpressure from a session's event consumer to its child: while the consumer's unread events are over the
 * channel's high-water mark, the child's stdout is not read (the child then blocks on the full pipe); once the
 * consumer has read down to the low-water mark, reading resumes. A stream nobody reads never pauses the child
 * (the turn then ends without a reader, and `result` settles). Released for good when the turn leaves its
 * running phases (cancelling, settling, the child exited, ended): every one of those is bounded by a timer that
 * must see the child's frames as they come, and what the child can still write then is bounded.
 */
export class ReadThrottle {
  #transport: Transport | null = null;
  #full = false;
  #released = false;

  /** The session's event channel, whose high- and low-water marks pause and resume reading. */
  channel(onConsumerStopped: () => void): EventChannel<HarnessEvent> {
    return new EventChannel<HarnessEvent>(onConsumerStopped, {
      highWater: EVENT_QUEUE_HIGH_WATER,
      lowWater: EVENT_QUEUE_LOW_WATER,
      onFull: (full) => this.consumerFull(full),
    });
  }

  /** The transport to pause; call once per launched child (a new child is throttled again until released). */
  attach(transport: Transport): void {
    this.#transport = transport;
    this.#released = false;
    this.#apply();
  }

  /** The consumer's queue reached the high-water mark (true) or was read down to the low-water mark (false). */
  consumerFull(full: boolean): void {
    this.#full = full;
    this.#apply();
  }

  /** Reads on from now on, whatever the consumer does. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#apply();
  }

  #apply(): void {
    const transport = this.#transport;
    if (transport === null) return;
    if (this.#full && !this.#released) transport.pause?.();
    else transport.resume?.();
  }
}
