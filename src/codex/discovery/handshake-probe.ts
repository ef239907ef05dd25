import { performance } from "node:perf_hooks";
import { isRennetError } from "../../errors.js";
import type { Launcher, LaunchSpec } from "../../process/stdio-child.js";
import { AppServerSession } from "../app-server/app-server-session.js";

/** The `handshake` probe's verdict. */
export type HandshakeProbeResult =
  | { type: "pass"; ms: number; userAgent: string | null }
  | { type: "fail"; reason: string; ms: number; aborted?: boolean };

export interface HandshakeProbeOptions {
  /** Starts `app-server`; its `terminate()` must end the whole tree. */
  launcher: Launcher;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Starts `<spec>` (which ends in `app-server`) as an {@link AppServerSession} and waits for its `initialize`
 * answer; then ends the child tree whatever happened. Server requests are declined; notifications are ignored.
 * A start lost to the state-database race is repeated by the session; `ms` covers every start. A codex that
 * is not ready fails the probe with the session's one-line reason; any other error is a defect and rejects.
 */
export async function probeHandshake(
  spec: LaunchSpec,
  options: HandshakeProbeOptions,
): Promise<HandshakeProbeResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const { signal } = options;
  if (signal?.aborted) return { type: "fail", reason: "aborted", ms: 0, aborted: true };
  const session = AppServerSession.open({
    spec,
    launcher: options.launcher,
    initializeTimeoutMs: options.timeoutMs,
    ...(signal ? { signal } : {}),
  });
  try {
    const answer = await session.ready;
    return { type: "pass", ms: ms(), userAgent: answer.userAgent };
  } catch (error) {
    if (signal?.aborted) return { type: "fail", reason: "aborted", ms: ms(), aborted: true };
    if (isRennetError(error, "APP_SERVER_NOT_READY"))
      return { type: "fail", reason: error.message, ms: ms() };
    throw error;
  } finally {
    await session.end({ graceMs: 1000 });
  }
}
