import { fakeRequestSteps } from "./fake-request-steps.js";

/**
 * The data a fake app-server follows. Scripts are plain JSON so the same script drives the in-memory fake and
 * the executable one (`rennet-fake-app-server`).
 */

/**
 * How a fake that exits lets go of its stdout, in the order the client sees the two: `close-first` (default:
 * stdout closes, then the exit is seen), `close-after` (the exit is seen first, stdout closes a little later,
 * as when a grandchild still holds it), `together` (both at once) or `keep-open` (the exit alone; in memory
 * stdout stays open until the client ends the fake, a real process's closes when it exits).
 */
export type FakeDeparture = "close-first" | "close-after" | "together" | "keep-open";

/** How a fake exits: code or signal, and the order of its exit and stdout close. */
export interface FakeExit {
  code?: number | null;
  signal?: string | null;
  stdout?: FakeDeparture;
}

/** How the fake answers one client request. */
export type FakeReply =
  | { result: unknown; delayMs?: number }
  | { error: { code: number; message: string; data?: unknown }; delayMs?: number }
  /** Never answer (to exercise deadlines). */
  | { noReply: true }
  /** Do not answer: exit instead (a crash while the request is in flight). */
  | { exit: FakeExit }
  /** Do not answer: close stdout and keep running. */
  | { closeStdout: true };

/** One piece of a {@link FakeChunk}. */
export type FakeChunkPart =
  /** One frame, serialized, with its newline. */
  | FakeSend
  /** Text as is (add "\n" yourself; a part may end in the middle of a line). */
  | { raw: string }
  /** Bytes as is, base64-encoded so scripts stay JSON (invalid UTF-8, a split multi-byte character). */
  | { rawBase64: string }
  /** One line of exactly this many bytes (newline excluded): a notification of an unknown method, padded. */
  | { paddedFrame: number }
  /** A second `result` for the client's latest request of this method: a response id already answered. */
  | { duplicateResponse: string };

/**
 * Bytes the fake writes together: its parts concatenated, in one write (so the client reads them in one chunk),
 * or cut at the byte offsets `cuts` into several writes with a turn of the event loop between them.
 */
export interface FakeChunk {
  parts: FakeChunkPart[];
  /** Byte offsets into the whole chunk; offsets outside it are ignored. */
  cuts?: number[];
}

/** A step that writes one frame; it is a {@link FakeChunkPart} too. */
export type FakeSend = { send: Record<string, unknown> };

/** One thing the fake does, in order. */
export type FakeStep =
  /** Write one frame (notification, server request, stray response, …). */
  | FakeSend
  /** Write raw text as is (add "\n" yourself). */
  | { raw: string }
  | { delayMs: number }
  /** Exit: close stdout, then report the exit (or in the order `stdout` says). */
  | { exit: FakeExit }
  /** Close stdout but keep running. */
  | { closeStdout: true }
  /** Exit without closing stdout first (the exit is seen before EOF). */
  | { exitKeepStdout: { code?: number | null; signal?: string | null } }
  /** Wait until the client answered the server request with this id. */
  | { awaitReply: number | string }
  /** Stop reading stdin and stop answering anything. */
  | { hang: true }
  /** Write several frames, raw text or bytes together (see {@link FakeChunk}). */
  | { chunk: FakeChunk }
  /**
   * Write codex's `userMessage` item (this item id) started and completed, its `content` the latest
   * `turn/start`'s `input` as codex echoes it (a text input with `text_elements: []`).
   */
  | { userMessage: string };

/** One rate-limit window of {@link fakeSteps}.rateLimits, as codex reports it. */
export interface FakeRateLimitWindow {
  usedPercent: number;
  windowDurationMins?: number | null;
  /** Unix seconds. */
  resetsAt?: number | null;
}

/** What a fake app-server does: its ids and model, its replies by method, and the steps of its turn (see {@link FakeStep}). */
export interface FakeScript {
  threadId?: string | undefined;
  turnId?: string | undefined;
  model?: string | undefined;
  /** Replies by method; these win over the defaults (initialize, thread/start, turn/start, turn/interrupt). */
  replies?: Record<string, FakeReply> | undefined;
  /**
   * By method: parts written in the same write as the response (result or error), right behind it, so the
   * client reads the response and what follows it in one chunk. `cuts` count from the start of the response.
   */
  alongReply?: Record<string, FakeChunk> | undefined;
  /** Steps right after `initialize` was answered. */
  afterInitialize?: FakeStep[] | undefined;
  /** Steps after the `turn/start` acknowledgement. */
  turn?: FakeStep[] | undefined;
  /** Steps after `turn/steer` was answered (e.g. the model's answer to the guidance). */
  onSteer?: FakeStep[] | undefined;
  /** Steps after `turn/interrupt` was answered. Default: an interrupted `turn/completed`. */
  onInterrupt?: FakeStep[] | undefined;
  /** What to do on stdin EOF. Default `exit` (code 0), like the real app-server. */
  onStdinEnd?: "exit" | "ignore" | undefined;
  /** Ignore SIGTERM in the executable fake (to exercise the SIGKILL path). */
  ignoreSigterm?: boolean | undefined;
  /** Executable fake only: text written to stderr at start. */
  stderr?: string | undefined;
}

/** A UUID, like the thread ids of codex (which `resume` requires). */
export const FAKE_THREAD_ID = "0199f0fa-4e00-7000-8000-000000000001";
/** The turn id the fake app-server gives unless its script names another. */
export const FAKE_TURN_ID = "turn_fake_0001";
/** The model the fake app-server reports unless its script names another. */
export const FAKE_MODEL = "fake-model";

/** Builders for common step sequences (server requests: {@link fakeRequestSteps}, also spread in). Pure. */
export const fakeSteps = {
  ...fakeRequestSteps,

  notify(method: string, params: Record<string, unknown>): FakeSend {
    return { send: { method, params, emittedAtMs: 0 } };
  },

  turnStarted(threadId = FAKE_THREAD_ID, turnId = FAKE_TURN_ID): FakeSend {
    return fakeSteps.notify("turn/started", {
      threadId,
      turn: { id: turnId, items: [], status: "inProgress", error: null },
    });
  },

  turnCompleted(
    status: "completed" | "failed" | "interrupted" | string,
    options: { error?: unknown; items?: unknown[]; threadId?: string; turnId?: string } = {},
  ): FakeSend {
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
  ): FakeSend {
    return fakeSteps.notify(`item/${phase}`, {
      item,
      threadId: ids.threadId ?? FAKE_THREAD_ID,
      turnId: ids.turnId ?? FAKE_TURN_ID,
    });
  },

  /** An agent message streamed in chunks, then completed. */
  agentMessage(itemId: string, chunks: string[], phase: string | null = "final_answer"): FakeSend[] {
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

  /** The echo of the turn's input that codex sends right after `turn/started` (see the `userMessage` step). */
  userMessage(itemId = "user_1"): FakeStep {
    return { userMessage: itemId };
  },

  /**
   * `account/rateLimits/updated`, which codex sends after each model response (both windows `null` when the
   * provider sent no rate-limit headers, as the loopback model server does). A window: `usedPercent`,
   * `windowDurationMins`, `resetsAt` (Unix seconds).
   */
  rateLimits(
    primary: FakeRateLimitWindow | null = null,
    secondary: FakeRateLimitWindow | null = null,
  ): FakeSend {
    return fakeSteps.notify("account/rateLimits/updated", {
      rateLimits: { limitId: "codex", limitName: null, primary, secondary, credits: null, planType: null },
    });
  },

  tokenUsage(
    total: Partial<Record<string, number>>,
    last: Partial<Record<string, number>> = total,
  ): FakeSend {
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

  /** A chunk step: frames (`send` steps), raw text and bytes written together, cut at `cuts` when given. */
  chunk(parts: FakeChunkPart[], cuts?: number[]): FakeStep {
    return { chunk: cuts === undefined ? { parts } : { parts, cuts } };
  },

  /**
   * A raw line: `frame` (a notification by default; give an `id` for a server request) with params that nest
   * arrays so that the whole frame is `depth` levels deep.
   */
  nested(
    depth: number,
    frame: Record<string, unknown> = { method: "item/agentMessage/delta" },
  ): { raw: string } {
    const inner = Math.max(0, depth - 2);
    const head = JSON.stringify({ ...frame, params: { v: 0 } }).slice(0, -3);
    return { raw: `${head}${"[".repeat(inner)}${"]".repeat(inner)}}}\n` };
  },

  /** `turn/plan/updated` for the owned turn. */
  plan(
    steps: { step: string; status: "pending" | "inProgress" | "completed" }[],
    explanation?: string,
  ): FakeSend {
    return fakeSteps.notify("turn/plan/updated", {
      threadId: FAKE_THREAD_ID,
      turnId: FAKE_TURN_ID,
      plan: steps,
      ...(explanation !== undefined ? { explanation } : {}),
    });
  },

  /** `turn/diff/updated` for the owned turn. */
  diff(diff: string): FakeSend {
    return fakeSteps.notify("turn/diff/updated", { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID, diff });
  },

  /**
   * A `fileChange` item started and completed (an `apply_patch`), each change `{path, kind, diff}` as codex sends
   * it: an update's hunks, an added or deleted file's whole content.
   */
  fileChange(
    itemId: string,
    changes: { path: string; kind: "add" | "delete" | "update"; diff?: string }[],
  ): FakeSend[] {
    const item = (status: string) => ({
      type: "fileChange",
      id: itemId,
      status,
      changes: changes.map((c) => ({ path: c.path, kind: { type: c.kind }, diff: c.diff ?? "" })),
    });
    return [fakeSteps.item("started", item("inProgress")), fakeSteps.item("completed", item("completed"))];
  },

  /**
   * An app tool call as codex 0.120+ makes it: the `dynamicToolCall` item started, the `item/tool/call` server
   * request (JSON-RPC id `requestId`), a wait for the client's answer, the item completed. The answer is in
   * `fake.peer.received` (the frame with `id: requestId` and no `method`).
   */
  appToolCall(
    requestId: number,
    tool: string,
    args: unknown,
    options: { callId?: string; items?: boolean } = {},
  ): FakeStep[] {
    const callId = options.callId ?? `call_${requestId}`;
    const item = (status: string) => ({ type: "dynamicToolCall", id: callId, tool, arguments: args, status });
    const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };
    const request: FakeStep = {
      send: { id: requestId, method: "item/tool/call", params: { ...ids, callId, tool, arguments: args } },
    };
    if (options.items === false) return [request, { awaitReply: requestId }];
    return [
      fakeSteps.item("started", item("inProgress")),
      request,
      { awaitReply: requestId },
      fakeSteps.item("completed", item("completed")),
    ];
  },

  /**
   * A complete successful turn answering `text`, with what codex 0.171 sends around the answer: the echo of the
   * prompt (`userMessage` item), the token usage and the rate limits.
   */
  textTurn(text: string, chunks: string[] = [text]): FakeStep[] {
    return [
      fakeSteps.turnStarted(),
      fakeSteps.userMessage(),
      ...fakeSteps.agentMessage("msg_1", chunks),
      fakeSteps.tokenUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
      fakeSteps.rateLimits(),
      fakeSteps.turnCompleted("completed", { items: [{ type: "agentMessage", id: "msg_1", text }] }),
    ];
  },
};
