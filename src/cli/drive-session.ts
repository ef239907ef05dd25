import type { Writable } from "node:stream";
import { bufferedReader } from "../harness/event-channel.js";
import type { HarnessEvent, TerminalEvent } from "../harness/events.js";
import type { HarnessSession } from "../harness/session.js";
import type { EventRenderer } from "./event-renderer.js";
import { RennetError } from "../errors.js";

/**
 * Renders every event of `session` and resolves with its terminal event once the child's process tree is
 * gone. If stdout breaks (EPIPE: the reader went away), the turn is cancelled instead of crashing. While stdout
 * waits to drain (a reader that stalls), no further event is taken, so the session's own backpressure pauses
 * the agent instead of the output piling up in this process.
 */
export async function driveSession(
  session: HarnessSession,
  renderer: EventRenderer,
  stdout: Writable,
  onTerminal: () => void = () => {},
): Promise<TerminalEvent> {
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    session.cancel(
      new RennetError("CLI_STDOUT_CLOSED", `stdout was closed (${error.code ?? error.message})`),
    );
  };
  stdout.on("error", onStdoutError);
  try {
    const render = (event: HarnessEvent): void => {
      renderer.render(event);
      if (event.type === "terminal") onTerminal();
    };
    // what is already queued is rendered in one go: one await per burst rather than one per event
    const readBuffered = bufferedReader(session.events);
    for await (const event of session.events) {
      render(event);
      if (readBuffered) for (const queued of readBuffered()) render(queued);
      if (stdout.writableNeedDrain) await drained(stdout);
    }
  } catch (error) {
    // leaving the loop cancelled the turn; wait for its processes before reporting
    await session.result;
    throw error;
  } finally {
    stdout.off("error", onStdoutError);
  }
  return session.result;
}

/** Resolves once `stdout` has drained, or can no longer be written (an error, or closed). */
function drained(stdout: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stdout.destroyed) return resolve();
    const done = (): void => {
      stdout.off("drain", done);
      stdout.off("error", done);
      stdout.off("close", done);
      resolve();
    };
    stdout.on("drain", done);
    stdout.on("error", done);
    stdout.on("close", done);
  });
}
