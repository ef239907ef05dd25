import type { Transport } from "../../src/jsonl/transport.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import type { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

/**
 * Wraps the fake's launcher so a test can act on each frame right before or after the runner sees it:
 * `onFrame` gets the frame and `deliver`, which hands it to the runner (call it once, or not at all to drop it).
 */
export function intercepting(
  onFrame: (frame: Record<string, unknown>, deliver: () => void) => void,
): (fake: InMemoryAppServer) => Launcher {
  return (fake) => (spec) => {
    const proc = fake.launcher(spec);
    const inner = proc.transport;
    const transport: Transport = {
      start: (listener) =>
        inner.start({ ...listener, frame: (frame) => onFrame(frame, () => listener.frame(frame)) }),
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

/** A launcher that calls `onTurnStarted` right after the runner has seen `turn/started`. */
export function withTurnStartedHook(fake: InMemoryAppServer, onTurnStarted: () => void): Launcher {
  return intercepting((frame, deliver) => {
    deliver();
    if (frame.method === "turn/started") onTurnStarted();
  })(fake);
}
