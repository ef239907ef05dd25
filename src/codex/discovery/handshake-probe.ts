import { performance } from "node:perf_hooks";
import { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { JsonRpcResponseError, RequestTimeoutError } from "../../jsonl/errors.js";
import { JSON_RPC_CODES } from "../../jsonl/json-rpc-codes.js";
import { performHandshake } from "../handshake.js";
import type { Launcher, ProcessExit } from "../../process/app-server-process.js";
import type { LaunchSpec } from "../../process/app-server-process.js";
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
 * child tree whatever happened. Server requests are declined; notifications are ignored.
 */
export async function probeHandshake(
  spec: LaunchSpec,
  options: HandshakeProbeOptions,
): Promise<HandshakeProbeResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  if (options.signal?.aborted) return { type: "fail", reason: "aborted", ms: 0, aborted: true };
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
    if (outcome === "aborted") return { type: "fail", reason: "aborted", ms: ms(), aborted: true };
    if (outcome.type === "result") return { type: "pass", ms: ms(), userAgent: outcome.answer.userAgent };
    const error = outcome.error;
    if (error instanceof TypeError) return { type: "fail", reason: error.message, ms: ms() };
    if (error instanceof RequestTimeoutError) {
      return {
        type: "fail",
        reason: `no initialize response within ${options.timeoutMs} ms${stderrLine(proc.stderrTail())}`,
        ms: ms(),
      };
    }
    if (error instanceof JsonRpcResponseError) {
      return {
        type: "fail",
        reason: `initialize was answered with an error: ${error.rpcMessage} (${error.rpcCode})`,
        ms: ms(),
      };
    }
    const exit = await Promise.race([proc.exit, delay(500, null, { ref: false })]);
    return {
      type: "fail",
      reason: `${describeExit(exit)} before answering initialize${stderrLine(proc.stderrTail())}`,
      ms: ms(),
    };
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

function stderrLine(stderr: string): string {
  const last = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .at(-1);
  if (!last) return "";
  return `: ${last.length > 240 ? `${last.slice(0, 240)}…` : last}`;
}
