import type { EventBody, HarnessEvent, TerminalEvent } from "../../harness/events.js";

/**
 * Stamps event bodies of one session (`seq` from 1, `harness`, `sessionId`, the owned `turnId`, `at`) and hands
 * them to `push`. Nothing follows the terminal frame: later bodies are dropped.
 */
export class EventStamper {
  readonly #sessionId: string;
  readonly #at: () => string;
  readonly #push: (event: HarnessEvent) => void;
  #seq = 0;
  #terminal: TerminalEvent | null = null;

  constructor(sessionId: string, at: () => string, push: (event: HarnessEvent) => void) {
    this.#sessionId = sessionId;
    this.#at = at;
    this.#push = push;
  }

  /** Stamps and pushes `body`; null when the terminal frame was already emitted. */
  emit(body: EventBody, turnId: string | null): HarnessEvent | null {
    if (this.#terminal) return null;
    const seq = ++this.#seq;
    const sessionId = this.#sessionId;
    const at = this.#at();
    let event: HarnessEvent;
    // the delta events, by the thousand in a stream, are built field by field (a spread after fixed fields
    // copies property by property at run time); every other event is spread, in the same field order
    switch (body.type) {
      case "text.delta":
        event = {
          seq,
          harness: "codex",
          sessionId,
          turnId,
          at,
          type: body.type,
          itemId: body.itemId,
          text: body.text,
        };
        break;
      case "reasoning.delta":
        event = {
          seq,
          harness: "codex",
          sessionId,
          turnId,
          at,
          type: body.type,
          itemId: body.itemId,
          text: body.text,
          kind: body.kind,
        };
        break;
      case "tool.output":
        event = {
          seq,
          harness: "codex",
          sessionId,
          turnId,
          at,
          type: body.type,
          itemId: body.itemId,
          tool: body.tool,
          text: body.text,
        };
        break;
      default:
        event = { seq, harness: "codex", sessionId, turnId, at, ...body } as HarnessEvent;
    }
    if (event.type === "terminal") this.#terminal = event;
    this.#push(event);
    return event;
  }
}
