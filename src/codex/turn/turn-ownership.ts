import { asRecord } from "../../json-record.js";

/**
 * Which thread and turn this session owns. Ids are adopted once, synchronously, while the response that names
 * them is routed (`thread/start`, `turn/start`), or from the owned thread's `turn/started`, whichever comes
 * first; before adoption nothing naming a thread or turn is owned.
 */
export class TurnOwnership {
  #threadId: string | null = null;
  #turnId: string | null = null;
  #model: string | null = null;

  get threadId(): string | null {
    return this.#threadId;
  }
  get turnId(): string | null {
    return this.#turnId;
  }
  /** The model codex reported for the thread (or rerouted the turn to). */
  get model(): string | null {
    return this.#model;
  }

  /** Adopts the thread of a `thread/start` result; `fallbackModel` when the result names no model. */
  adoptThreadResult(result: unknown, fallbackModel: string | null): string | null {
    const record = asRecord(result);
    const id = asRecord(record.thread).id;
    if (typeof id !== "string" || this.#threadId !== null) return this.#threadId;
    this.#threadId = id;
    this.#model = typeof record.model === "string" ? record.model : fallbackModel;
    return id;
  }

  /** Adopts the turn of a `turn/start` result. */
  adoptTurnResult(result: unknown): void {
    const id = asRecord(asRecord(result).turn).id;
    if (typeof id === "string") this.adoptTurn(id);
  }

  /** Adopts a turn id unless one is already owned. */
  adoptTurn(turnId: string): void {
    this.#turnId ??= turnId;
  }

  /** Codex moved the turn to another model (`model/rerouted`). */
  reroute(model: string): void {
    this.#model = model;
  }
}
