/** The ids of the control requests one turn sends Claude (`rennet-1`, `rennet-2`, …), each fresh. */
export class ControlRequestIds {
  #count = 0;
  readonly #sent = new Set<string>();

  /** A fresh id, remembered as sent. */
  next(): string {
    const id = `rennet-${++this.#count}`;
    this.#sent.add(id);
    return id;
  }

  /** Whether `requestId` is one this turn sent (a `control_response` naming another answers nothing of it). */
  sent(requestId: string): boolean {
    return this.#sent.has(requestId);
  }
}
