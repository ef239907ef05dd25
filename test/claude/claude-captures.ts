import { readFileSync } from "node:fs";
import path from "node:path";
import { ClaudeEventMapper } from "../../src/claude/event-mapper.js";
import type { ClaudeMapResult } from "../../src/claude/map-result.js";
import type { EventBody } from "../../src/harness/events.js";
import { REPO_ROOT } from "../helpers/codex-bin.js";

/** The stdout lines of a real Claude Code capture in test/fixtures/claude, decoded. */
export function capture(name: string): Record<string, unknown>[] {
  const file = path.join(REPO_ROOT, "test", "fixtures", "claude", `${name}.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every line through one mapper: the events in order, every map result, and the mapper. */
export function mapLines(lines: Record<string, unknown>[]): {
  events: EventBody[];
  results: ClaudeMapResult[];
  mapper: ClaudeEventMapper;
} {
  // a capture's control responses answer requests of the client that recorded it
  const mapper = new ClaudeEventMapper({ sentRequest: () => true });
  const results = lines.map((line) => mapper.map(line));
  return { events: results.flatMap((result) => result.events), results, mapper };
}

export function mapCapture(name: string): ReturnType<typeof mapLines> {
  return mapLines(capture(name));
}

export function ofType<T extends EventBody["type"]>(
  events: EventBody[],
  type: T,
): Extract<EventBody, { type: T }>[] {
  return events.filter((event): event is Extract<EventBody, { type: T }> => event.type === type);
}
