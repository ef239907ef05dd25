import { performance } from "node:perf_hooks";
import { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { JsonRpcResponseError, RequestTimeoutError } from "../../jsonl/errors.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import { isRennetError } from "../../errors.js";
import { performHandshake } from "../app-server/handshake.js";
import { isStateDbRace, STATE_DB_RACE_STARTS, stateDbRaceRetryDelayMs } from "../versions/state-db-race.js";
import type { Launcher, ProcessExit } from "../../process/stdio-child.js";
import type { LaunchSpec } from "../../process/stdio-child.js";
import { setTimeout as delay } from "node:timers/promises";

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
 * Starts `<spec>` (which ends in `app-server`), sends `initialize` and waits for its result; then terminates the
 * child tree whatever happened. Server requests are declined; notifications are ignored. A codex that exits
 * before answering because another codex was migrating the same state database at the same time is started
 * again (see `state-db-race.ts`); `ms` covers every start.
 */
export async function probeHandshake(
  spec: LaunchSpec,
  options: HandshakeProbeOptions,
): Promise<HandshakeProbeResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  for (let starts = 1; ; starts++) {
    const { result, raced } = await probeOnce(spec, options, ms);
    if (!raced || starts >= STATE_DB_RACE_STARTS) return result;
    try {
      await delay(stateDbRaceRetryDelayMs(starts), null, { signal: options.signal });
    } catch {
      return { type: "fail", reason: "aborted", ms: ms(), aborted: true };
    }
  }
}

/** One start of the probe; `raced` when codex exited before answering with the state-database race. */
async function probeOnce(
  spec: LaunchSpec,
  options: HandshakeProbeOptions,
  ms: () => number,
): Promise<{ result: HandshakeProbeResult; raced: boolean }> {
  const fail = (reason: string, raced = false): { result: HandshakeProbeResult; raced: boolean } => ({
    result: { type: "fail", reason, ms: ms() },
    raced,
  });
  if (options.signal?.aborted)
    return { result: { type: "fail", reason: "aborted", ms: 0, aborted: true }, raced: false };
  const proc = options.launcher(spec);
  const connection: JsonRpcConnection = new JsonRpcConnection(proc.transport, {
    notification: () => {},
    request: (frame) => {
      connection.respondError(
        frame.id,
        JSON_RPC_CODES.methodNotFound,
        "rennet discovery does not handle server requests",
      );
    },
    stray: () => {},
    invalid: () => {},
    closed: () => {},
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([
      performHandshake(connection, { timeoutMs: options.timeoutMs }).then(
        (answer) => ({ type: "result" as const, answer }),
        (error: unknown) => ({ type: "error" as const, error }),
      ),
      aborted,
    ]);
    if (outcome === "aborted")
      return { result: { type: "fail", reason: "aborted", ms: ms(), aborted: true }, raced: false };
    if (outcome.type === "result") {
      return { result: { type: "pass", ms: ms(), userAgent: outcome.answer.userAgent }, raced: false };
    }
    const error = outcome.error;
    if (isRennetError(error, "NOT_CODEX")) return fail(error.message);
    if (error instanceof RequestTimeoutError) {
      return fail(`no initialize response within ${options.timeoutMs} ms${stderrLine(proc.stderrTail())}`);
    }
    if (error instanceof JsonRpcResponseError) {
      return fail(`initialize was answered with an error: ${error.rpcMessage} (${error.rpcCode})`);
    }
    const exit = await Promise.race([proc.exit, delay(500, null, { ref: false })]);
    const stderr = proc.stderrTail();
    return fail(
      `${describeExit(exit)} before answering initialize${stderrLine(stderr)}`,
      exit?.type === "exited" && isStateDbRace(stderr),
    );
  } finally {
    if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    connection.close();
    await proc.terminate({ graceMs: 1000 });
  }
}

function describeExit(exit: ProcessExit | null): string {
  if (!exit) return "closed its output";
  if (exit.type === "spawn-error") return `could not start (${exit.errno ?? "error"}: ${exit.message})`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** Codex's `Error: …` line when it printed one (a backtrace may follow it), else its last line. */
function stderrLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const last = lines.findLast((line) => line.startsWith("Error: ")) ?? lines.at(-1);
  if (!last) return "";
  return `: ${last.length > 240 ? `${last.slice(0, 240)}…` : last}`;
}
