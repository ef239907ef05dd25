import { RennetError } from "../../errors.js";
import { CONVERSATION_RUN_OPTIONS } from "./known-options.js";
import { checkOptionKeys, checkSignal } from "./option-check.js";
import { settleSession } from "../../call/settle.js";
import type { HarnessSession } from "../../harness/session.js";
import type {
  CodexCallOptions,
  ConversationOptions,
  ConversationRunOptions,
  TurnResult,
} from "./call-options.js";

export type { ConversationOptions, ConversationRunOptions } from "./call-options.js";

/** What a conversation needs of its client: a turn's session, with the reason it was cancelled with. */
export interface ConversationClient {
  runStreamed(options: CodexCallOptions): HarnessSession & { readonly cancelReason: unknown };
}

/** A second turn was started before the first one of the same conversation ended. */
export class ConversationBusyError extends RennetError<"CONVERSATION_BUSY"> {
  override readonly name = "ConversationBusyError";
  constructor() {
    super("CONVERSATION_BUSY", "a conversation runs one turn at a time: await the previous run() first");
  }
}

/**
 * Follow-up turns on one thread, each in its own fresh `codex app-server` child: the first turn keeps its
 * thread (`ephemeral: false`), every later one continues it with `resume`. The thread is recorded in the user's
 * Codex history, since continuing it needs that record.
 */
export class Conversation {
  readonly #client: ConversationClient;
  readonly #options: ConversationOptions;
  #threadId: string | null;
  #busy = false;

  constructor(client: ConversationClient, options: ConversationOptions = {}) {
    const { threadId, ...rest } = options;
    this.#client = client;
    this.#options = rest;
    this.#threadId = threadId ?? null;
  }

  /** The thread this conversation continues; null before its first turn. */
  get threadId(): string | null {
    return this.#threadId;
  }

  /**
   * Runs one turn of the conversation (see `CodexClient.run` for how it settles, and which options errors it
   * rejects with before anything starts). A turn that codex acknowledged keeps its thread whatever its outcome
   * (failed, cancelled by a limit or by `signal`): the next turn continues it. `images` go with this turn's
   * prompt only.
   */
  async run(prompt: string, options: ConversationRunOptions = {}): Promise<TurnResult> {
    checkOptionKeys(options, CONVERSATION_RUN_OPTIONS, true);
    checkSignal(options.signal);
    if (this.#busy) throw new ConversationBusyError();
    this.#busy = true;
    try {
      const session = this.#client.runStreamed({
        ...this.#options,
        prompt,
        ephemeral: false,
        ...(this.#threadId !== null ? { resume: this.#threadId } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.images !== undefined ? { images: options.images } : {}),
      });
      try {
        return await settleSession(session, options.signal);
      } finally {
        const terminal = await session.result;
        // a thread whose turn codex never acknowledged may have no record to resume from
        if (terminal.threadId !== null && terminal.turnId !== null) this.#threadId = terminal.threadId;
      }
    } finally {
      this.#busy = false;
    }
  }
}
