/**
 * Item ids for the text and thinking blocks of Claude's messages. Claude names messages (`msg_…`), not blocks:
 * a block is `<message id>:<index>`, the index its `content_block_start` gave it. Its deltas
 * (`stream_event`) arrive first, then one `assistant` line holding the whole block (with the message's id but
 * not the index), so that line claims the earliest started, unclaimed block of its type in that message; a line
 * with no streamed block (no partial messages, a subagent) gets the next index of its message. A message
 * without an id gets a synthetic one (`message-N`). Holds only the
 * main agent's streaming message; never throws.
 */
export class MessageBlocks {
  #messageId: string | null = null;
  /** Blocks of the streaming message by index: their type and whether an assistant line claimed them. */
  #started = new Map<number, { type: string; claimed: boolean }>();
  /** Blocks seen per message through assistant lines, for ids of blocks that were not streamed. */
  #counts = new Map<string, number>();
  #anonymous = 0;

  /** A `message_start` of the main agent. */
  startMessage(messageId: string | null): void {
    this.#messageId = messageId ?? `message-${++this.#anonymous}`;
    this.#started = new Map();
  }

  /** A `content_block_start`; returns the block's item id. */
  startBlock(index: number, type: string): string {
    this.#started.set(index, { type, claimed: false });
    return this.#idOf(this.#messageId, index);
  }

  /** The item id of a delta's block (by index) in the streaming message. */
  deltaItemId(index: number): string {
    return this.#idOf(this.#messageId, index);
  }

  /** The item id of a whole block from an assistant line of message `messageId`. */
  claim(messageIdOrNull: string | null, type: string): string {
    const messageId = messageIdOrNull ?? `message-${++this.#anonymous}`;
    const count = this.#counts.get(messageId) ?? 0;
    this.#counts.set(messageId, count + 1);
    if (messageId === this.#messageId) {
      const indexes = [...this.#started.keys()].sort((a, b) => a - b);
      for (const index of indexes) {
        const block = this.#started.get(index);
        if (block && !block.claimed && block.type === type) {
          block.claimed = true;
          return this.#idOf(messageId, index);
        }
      }
    }
    return this.#idOf(messageId, count);
  }

  #idOf(messageId: string | null, index: number): string {
    return `${messageId ?? "message-0"}:${index}`;
  }
}
