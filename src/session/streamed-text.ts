/** Deltas joined into one flat block at a time. */
export const STREAMED_BLOCK_DELTAS = 256;

/**
 * The text streamed so far per item, for an item that completes without carrying its text. Deltas are joined
 * into flat blocks of {@link STREAMED_BLOCK_DELTAS}: appending one string per delta would keep one rope node per
 * delta alive (100,000 small objects for a long answer), each copied through the young generation by every
 * garbage collection until the item completes. An item's text is dropped once it was taken.
 */
export class StreamedText {
  readonly #items = new Map<string, { blocks: string[]; pending: string[] }>();
  /** The item that most recently got a delta. */
  #latest: string | null = null;

  append(itemId: string, delta: string): void {
    let text = this.#items.get(itemId);
    if (text === undefined) {
      text = { blocks: [], pending: [] };
      this.#items.set(itemId, text);
    }
    this.#latest = itemId;
    text.pending.push(delta);
    if (text.pending.length >= STREAMED_BLOCK_DELTAS) {
      text.blocks.push(text.pending.join(""));
      text.pending = [];
    }
  }

  /** The text streamed so far for the item that most recently got a delta, while it is not taken. */
  latest(): string | undefined {
    const text = this.#latest === null ? undefined : this.#items.get(this.#latest);
    return text === undefined ? undefined : text.blocks.join("") + text.pending.join("");
  }

  /** The whole text streamed for `itemId` (undefined when none was), and forgets it. */
  take(itemId: string): string | undefined {
    const text = this.#items.get(itemId);
    if (text === undefined) return undefined;
    this.#items.delete(itemId);
    return text.blocks.join("") + text.pending.join("");
  }
}
