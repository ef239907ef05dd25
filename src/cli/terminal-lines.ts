import { createInterface, type Interface } from "node:readline";
import type { Readable } from "node:stream";

/** Lines read from a stream on demand, in order; the stream is opened at the first read. */
export interface TerminalLines {
  /** The next line; null at the end of the stream, or once `signal` aborts (the line then stays queued). */
  read(signal: AbortSignal): Promise<string | null>;
  /** Stops reading the stream. */
  close(): void;
}

export function terminalLines(stdin: Readable): TerminalLines {
  let reader: Interface | null = null;
  const lines: string[] = [];
  const waiting: Array<(line: string | null) => void> = [];
  let closed = false;
  const open = (): void => {
    if (reader) return;
    reader = createInterface({ input: stdin, terminal: false });
    reader.on("line", (line) => {
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    });
    reader.on("close", () => {
      closed = true;
      for (const next of waiting.splice(0)) next(null);
    });
  };
  const read = (signal: AbortSignal): Promise<string | null> => {
    open();
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (line: string | null): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(line);
      };
      const onAbort = (): void => {
        const index = waiting.indexOf(done);
        if (index >= 0) waiting.splice(index, 1);
        resolve(null);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiting.push(done);
    });
  };
  return {
    read,
    close: () => {
      const current = reader as Interface | null;
      current?.close();
    },
  };
}
