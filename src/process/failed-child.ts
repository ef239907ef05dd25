import { errorMessage } from "../errors.js";
import { createInMemoryTransportPair } from "../jsonl/in-memory-transport.js";
import type { StdioChild } from "./stdio-child.js";

/**
 * The child of a launcher that threw instead of reporting its failure through `exit` (an injected launcher that
 * breaks the {@link Launcher} contract): nothing runs, its output is closed and its exit is a `spawn-error` with
 * the thrown message, so the session that launched it ends like one whose spawn failed. Pure.
 */
export function failedChild(error: unknown): StdioChild {
  const [client, server] = createInMemoryTransportPair();
  server.endRaw();
  return {
    pid: null,
    transport: client.transport,
    exit: Promise.resolve({ type: "spawn-error", errno: null, message: errorMessage(error) }),
    stderrTail: () => "",
    terminate: () => Promise.resolve(),
  };
}
