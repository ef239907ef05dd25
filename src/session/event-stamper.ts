import type { EventBody, HarnessEvent, HarnessName, TerminalEvent } from "../harness/events.js";

/**
 * Stamps event bodies of one session (`seq` from 1, `harness`, `sessionId`, the owned `turnId`, `at`) and hands
 * them to `push`. Nothing follows the terminal frame: later bodies are dropped.
 */
export class EventStamper {
  readonly #harness: HarnessName;
  readonly #sessionId: string;
  readonly #at: () => string;
  readonly #push: (event: HarnessEvent) => void;
  #seq = 0;
  #terminal: TerminalEvent | null = null;

  constructor(
    harness: HarnessName,
    sessionId: string,
    at: () => string,
    push: (event: HarnessEvent) => void,
  ) {
    this.#harness = harness;
    this.#sessionId = sessionId;
    this.#at = at;
    this.#push = push;
  }

  /** Stamps and pushes `body`; null when the terminal frame was already emitted. */
  emit(body: EventBody, turnId: string | null): HarnessEvent | null {
    if (this.#terminal) return null;
    const event = {
      seq: ++this.#seq,
      harness: this.#harness,
      sessionId: this.#sessionId,
      turnId,
      at: this.#at(),
      ...body,
    } as HarnessEvent;
    if (event.type === "terminal") this.#terminal = event;
    this.#push(event);
    return event;
  }
}
