import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { HarnessSession } from "../../src/harness/session.js";

/** Drains a session: every event, and the terminal from `result`. */
export async function collect(
  session: HarnessSession,
): Promise<{ events: HarnessEvent[]; terminal: TerminalEvent }> {
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  const terminal = await session.result;
  return { events, terminal };
}

export function ofType<T extends HarnessEvent["type"]>(
  events: readonly HarnessEvent[],
  type: T,
): Extract<HarnessEvent, { type: T }>[] {
  return events.filter((e): e is Extract<HarnessEvent, { type: T }> => e.type === type);
}

/**
 * Reads a session to its end, steering it with `input` at its first `tool.started` (a turn is surely running
 * then); returns that steer's promise (wrapped, so that awaiting this does not await it), null when no tool
 * started.
 */
export async function steerAtFirstTool(
  session: HarnessSession,
  input: Parameters<HarnessSession["steer"]>[0],
): Promise<{ steered: Promise<void> | null }> {
  let steered: Promise<void> | null = null;
  for await (const event of session.events) {
    if (event.type === "tool.started" && steered === null) steered = session.steer(input);
  }
  return { steered };
}
