import type { EventBase, SessionStartedEvent } from "../../harness/events.js";
import { asRecord } from "../../json-record.js";
import type { JsonRpcResponseError } from "../../jsonl/errors.js";
import { excerpt } from "../../jsonl/frame-parser.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { performHandshake } from "../handshake.js";
import { decideTrust, trustOverride } from "../project-trust.js";
import {
  buildThreadStartParams,
  buildTurnStartParams,
  type TurnRequestOptions,
} from "../protocol-requests.js";
import type { TurnOwnership } from "./turn-ownership.js";
import type { TurnTimeouts } from "./turn-runner-options.js";

/** What the start sequence needs from its session. */
export interface TurnStartContext {
  conn: JsonRpcConnection;
  /** The cwd as Codex sees it. */
  cwd: string;
  request: TurnRequestOptions;
  timeouts: TurnTimeouts;
  ownership: TurnOwnership;
  /** Wraps each step; rejects once the session has ended, so the sequence stops there. */
  until<T>(step: Promise<T>): Promise<T>;
  /** An error answer, called while it is routed (before any frame behind it is mapped). */
  onRefused(error: JsonRpcResponseError): void;
  /** The thread exists: the session announces itself. */
  onSessionStarted(started: Omit<SessionStartedEvent, keyof EventBase>): void;
  /** The session ended while a step's answer was on its way (an await resumes a tick later). */
  ended(): boolean;
  /** `thread/start` named no thread: the session fails with this excerpt of the result. */
  onNoThread(resultExcerpt: string): void;
}

/**
 * `initialize`/`initialized`, the trust lookup, `thread/start` and `turn/start`. Ids are adopted into the
 * ownership while their responses are routed, so frames in the same chunk behind a response are judged against
 * the right thread and turn. Rejects with the connection's errors (refused, stalled, closed) or the `until` one.
 */
export async function startTurn(ctx: TurnStartContext): Promise<void> {
  const { conn, cwd, timeouts, ownership } = ctx;
  const onError = ctx.onRefused;
  const init = await ctx.until(performHandshake(conn, { timeoutMs: timeouts.initializeMs }));
  const threadConfig = await ctx.until(threadConfigFor(conn, cwd, timeouts.threadStartMs));
  const thread = await ctx.until(
    conn.request("thread/start", buildThreadStartParams({ ...ctx.request, cwd, threadConfig }), {
      timeoutMs: timeouts.threadStartMs,
      onError,
      onResult: (result) => ownership.adoptThreadResult(result, ctx.request.model ?? null),
    }),
  );
  const threadId = ownership.threadId;
  if (ctx.ended()) return;
  if (threadId === null) {
    ctx.onNoThread(excerpt(JSON.stringify(thread) ?? String(thread)));
    return;
  }
  const threadCwd = asRecord(thread).cwd;
  ctx.onSessionStarted({
    type: "session.started",
    threadId,
    model: ownership.model,
    cwd: typeof threadCwd === "string" ? threadCwd : cwd,
    codexVersion: init.codexVersion,
    pid: null,
  });
  await ctx.until(
    conn.request("turn/start", buildTurnStartParams(threadId, { ...ctx.request, cwd }), {
      timeoutMs: timeouts.turnStartMs,
      onError,
      onResult: (result) => ownership.adoptTurnResult(result),
    }),
  );
}

/**
 * The user's own trust decision for the cwd, read through `config/read` (Rennet never opens the user's config
 * file) and stated in the thread config, which keeps codex from persisting one into config.toml.
 */
async function threadConfigFor(
  conn: JsonRpcConnection,
  cwd: string,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const read = await conn.request("config/read", { cwd, includeLayers: false }, { timeoutMs });
  return trustOverride(cwd, decideTrust(cwd, asRecord(asRecord(read).config).projects));
}
