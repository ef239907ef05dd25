/**
 * A conversation of any harness's client: follow-up turns on one kept thread, each in its own fresh child. The
 * client says how a turn starts (a kept thread, or the given one continued); this module owns the rest: one turn
 * at a time, and which thread the next turn continues.
 */
import { RennetError } from "../errors.js";
import type { HarnessSession } from "../harness/session.js";
import { checkOptionKeys, checkSignal, known, type OptionHints } from "./option-keys.js";
import { settleSession, type TurnResult } from "./settle.js";

/** One turn of a conversation: its signal, and the images that go with its prompt (that turn's only). */
export interface ConversationRunOptions {
  signal?: AbortSignal | undefined;
  /** Local image files sent with this turn's prompt, as a call's `images`; a later turn does not send them again. */
  images?: readonly string[] | undefined;
}

/** The option keys of `chat.run(prompt, options)`, whatever the harness. */
const CONVERSATION_RUN_OPTIONS = known<ConversationRunOptions>("conversation run() / runStreamed() options", {
  signal: true,
  images: true,
});

/** What a client is asked to start for one turn: its prompt and per-turn options, and the thread to continue. */
export interface ConversationTurn extends ConversationRunOptions {
  prompt: string;
  /** The kept thread this turn continues; null for the conversation's first, which starts one and keeps it. */
  threadId: string | null;
}

/**
 * How a client starts one turn of a conversation: a session that keeps its thread, continuing `turn.threadId`
 * when given. It throws, before anything starts, for what the call's own checks refuse.
 */
export type StartConversationTurn = (
  turn: ConversationTurn,
) => HarnessSession & { readonly cancelReason: unknown };

/** A second turn was started before the first one of the same conversation ended. */
export class ConversationBusyError extends RennetError<"CONVERSATION_BUSY"> {
  override readonly name = "ConversationBusyError";
  constructor() {
    super(
      "CONVERSATION_BUSY",
      "a conversation runs one turn at a time: await the previous run(), or the previous runStreamed() session's result, first",
    );
  }
}

/**
 * Follow-up turns on one thread, each in its own fresh child: the first turn keeps its thread, every later one
 * continues it. The thread is recorded in the user's history of the harness (Codex's sessions, Claude Code's
 * transcripts), since continuing it needs that record.
 */
export class Conversation {
  readonly #start: StartConversationTurn;
  readonly #hints: OptionHints;
  #threadId: string | null;
  #busy = false;

  /** `threadId`: a kept thread, checked by the client, that the first turn continues; null to start one. */
  constructor(start: StartConversationTurn, threadId: string | null, hints: OptionHints) {
    this.#start = start;
    this.#threadId = threadId;
    this.#hints = hints;
  }

  /** The thread this conversation continues; null before its first turn. */
  get threadId(): string | null {
    return this.#threadId;
  }

  /**
   * Starts one turn of the conversation and returns its session, as the client's `runStreamed` does (it throws
   * the same options errors before anything starts). The conversation is busy until `session.result` settles
   * (the child is gone by then): await it before the next turn. A turn the harness started (Codex acknowledged
   * the turn, Claude Code sent its `system/init`) keeps its thread whatever its outcome (failed, cancelled by a
   * limit, by `signal` or by `session.cancel()`): the next turn continues it. `images` go with this turn's
   * prompt only.
   */
  runStreamed(prompt: string, options: ConversationRunOptions = {}): HarnessSession {
    return this.#startTurn(prompt, options);
  }

  /**
   * Runs one turn of the conversation to its end (see the client's `run` for how it settles, and which options
   * errors it rejects with before anything starts); resolves once the turn's child is gone, so the next `run()`
   * may follow at once. Which turns keep the thread: {@link Conversation.runStreamed}.
   */
  async run(prompt: string, options: ConversationRunOptions = {}): Promise<TurnResult> {
    const session = this.#startTurn(prompt, options);
    try {
      return await settleSession(session, options.signal);
    } finally {
      await session.result;
    }
  }

  #startTurn(prompt: string, options: ConversationRunOptions): ReturnType<StartConversationTurn> {
    checkOptionKeys(options, CONVERSATION_RUN_OPTIONS, this.#hints, true);
    checkSignal(options.signal);
    if (this.#busy) throw new ConversationBusyError();
    const session = this.#start({
      prompt,
      threadId: this.#threadId,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.images !== undefined ? { images: options.images } : {}),
    });
    this.#busy = true;
    void session.result.then((terminal) => {
      // a thread whose turn the harness never started may have no record to resume from
      if (terminal.threadId !== null && terminal.turnId !== null) this.#threadId = terminal.threadId;
      this.#busy = false;
    });
    return session;
  }
}
