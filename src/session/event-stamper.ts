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
    const event = this.#stamp(body, turnId);
    if (event.type === "terminal") this.#terminal = event;
    this.#push(event);
    return event;
  }

  /**
   * The stamp fields, then the body's. The streamed-text events, which come by the thousand, are built field by
   * field (their fields are exactly those `harness/events.ts` declares): a spread copies property by property.
   */
  #stamp(body: EventBody, turnId: string | null): HarnessEvent {
    const seq = ++this.#seq;
    const harness = this.#harness;
    const sessionId = this.#sessionId;
    const at = this.#at();
    switch (body.type) {
      case "text.delta": {
        const { type, itemId, text } = body;
        return { seq, harness, sessionId, turnId, at, type, itemId, text };
      }
      case "reasoning.delta": {
        const { type, itemId, text, kind } = body;
        return { seq, harness, sessionId, turnId, at, type, itemId, text, kind };
      }
      case "tool.output": {
        const { type, itemId, tool, text } = body;
        return { seq, harness, sessionId, turnId, at, type, itemId, tool, text };
      }
      default:
        return { seq, harness, sessionId, turnId, at, ...body } as HarnessEvent;
    }
  }
}
