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
