import type { Transport } from "../../src/jsonl/transport.js";
import type { Launcher } from "../../src/process/app-server-process.js";
import type { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

/** A launcher that calls `onTurnStarted` right after the runner has seen `turn/started`. */
export function withTurnStartedHook(fake: InMemoryAppServer, onTurnStarted: () => void): Launcher {
  return (spec) => {
    const proc = fake.launcher(spec);
    const inner = proc.transport;
    const transport: Transport = {
      start: (listener) =>
        inner.start({
          ...listener,
          frame: (frame) => {
            listener.frame(frame);
            if (frame.method === "turn/started") onTurnStarted();
          },
        }),
      send: (frame) => inner.send(frame),
      endOutput: () => inner.endOutput(),
      close: () => inner.close(),
      get isClosed() {
        return inner.isClosed;
      },
    };
    return { ...proc, transport };
  };
}
