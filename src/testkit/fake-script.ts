/**
 * The data a fake app-server follows. Scripts are plain JSON so the same script drives the in-memory fake and
 * the executable one (`rennet-fake-app-server`).
 */

/** How the fake answers one client request. */
export type FakeReply =
  | { result: unknown; delayMs?: number }
  | { error: { code: number; message: string; data?: unknown }; delayMs?: number }
  /** Never answer (to exercise deadlines). */
  | { noReply: true };

/** One thing the fake does, in order. */
export type FakeStep =
  /** Write one frame (notification, server request, stray response, …). */
  | { send: Record<string, unknown> }
  /** Write raw text as is (add "\n" yourself). */
  | { raw: string }
  | { delayMs: number }
  /** Exit: close stdout, then report the exit. */
  | { exit: { code?: number | null; signal?: string | null } }
  /** Close stdout but keep running. */
  | { closeStdout: true }
  /** Exit without closing stdout first (the exit is seen before EOF). */
  | { exitKeepStdout: { code?: number | null; signal?: string | null } }
  /** Wait until the client answered the server request with this id. */
  | { awaitReply: number | string }
  /** Stop reading stdin and stop answering anything. */
  | { hang: true };

export interface FakeScript {
  threadId?: string;
  turnId?: string;
  model?: string;
  /** Replies by method; these win over the defaults (initialize, thread/start, turn/start, turn/interrupt). */
  replies?: Record<string, FakeReply>;
  /** Steps right after `initialize` was answered. */
  afterInitialize?: FakeStep[];
  /** Steps after the `turn/start` acknowledgement. */
  turn?: FakeStep[];
  /** Steps after `turn/interrupt` was answered. Default: an interrupted `turn/completed`. */
  onInterrupt?: FakeStep[];
  /** What to do on stdin EOF. Default `exit` (code 0), like the real app-server. */
  onStdinEnd?: "exit" | "ignore";
  /** Ignore SIGTERM in the executable fake (to exercise the SIGKILL path). */
  ignoreSigterm?: boolean;
  /** Executable fake only: text written to stderr at start. */
  stderr?: string;
}

export const FAKE_THREAD_ID = "thr_fake_0001";
export const FAKE_TURN_ID = "turn_fake_0001";
export const FAKE_MODEL = "fake-model";

/** Builders for common step sequences. Pure. */
export const fakeSteps = {
  notify(method: string, params: Record<string, unknown>): FakeStep {
    return { send: { method, params, emittedAtMs: 0 } };
  },

  turnStarted(threadId = FAKE_THREAD_ID, turnId = FAKE_TURN_ID): FakeStep {
    return fakeSteps.notify("turn/started", {
      threadId,
      turn: { id: turnId, items: [], status: "inProgress", error: null },
    });
  },

  turnCompleted(
    status: "completed" | "failed" | "interrupted" | string,
    options: { error?: unknown; items?: unknown[]; threadId?: string; turnId?: string } = {},
  ): FakeStep {
    return fakeSteps.notify("turn/completed", {
      threadId: options.threadId ?? FAKE_THREAD_ID,
      turn: {
        id: options.turnId ?? FAKE_TURN_ID,
        items: options.items ?? [],
        status,
        error: options.error ?? null,
      },
    });
  },

  item(
    phase: "started" | "completed",
    item: Record<string, unknown>,
    ids: { threadId?: string; turnId?: string } = {},
  ): FakeStep {
    return fakeSteps.notify(`item/${phase}`, {
      item,
      threadId: ids.threadId ?? FAKE_THREAD_ID,
      turnId: ids.turnId ?? FAKE_TURN_ID,
    });
  },

  /** An agent message streamed in chunks, then completed. */
  agentMessage(itemId: string, chunks: string[], phase: string | null = "final_answer"): FakeStep[] {
    return [
      fakeSteps.item("started", { type: "agentMessage", id: itemId, text: "", phase }),
      ...chunks.map((delta) =>
        fakeSteps.notify("item/agentMessage/delta", {
          itemId,
          delta,
          threadId: FAKE_THREAD_ID,
          turnId: FAKE_TURN_ID,
        }),
      ),
      fakeSteps.item("completed", { type: "agentMessage", id: itemId, text: chunks.join(""), phase }),
    ];
  },

  tokenUsage(
    total: Partial<Record<string, number>>,
    last: Partial<Record<string, number>> = total,
  ): FakeStep {
    const full = (b: Partial<Record<string, number>>): Record<string, number> => ({
      totalTokens: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      outputTokens: 0,
      reasoningOutputTokens: 0,
      ...b,
    });
    return fakeSteps.notify("thread/tokenUsage/updated", {
      threadId: FAKE_THREAD_ID,
      turnId: FAKE_TURN_ID,
      tokenUsage: { total: full(total), last: full(last), modelContextWindow: 200000 },
    });
  },

  /** A complete successful turn answering `text`. */
  textTurn(text: string, chunks: string[] = [text]): FakeStep[] {
    return [
      fakeSteps.turnStarted(),
      ...fakeSteps.agentMessage("msg_1", chunks),
      fakeSteps.tokenUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
      fakeSteps.turnCompleted("completed", { items: [{ type: "agentMessage", id: "msg_1", text }] }),
    ];
  },
};
