import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { ClaudeEventMapper, type ClaudeMapResult } from "../../src/claude/event-mapper.js";
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
  const mapper = new ClaudeEventMapper();
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

/**
 * The invariants every mapped turn keeps: each `tool.started` has exactly one `tool.completed` after it (and
 * nothing of that tool after its completion), item ids of started tools are unique, and no text delta names an
 * item whose `text.completed` came before it.
 */
export function expectWellFormed(events: EventBody[]): void {
  const started = new Map<string, number>();
  const completed = new Map<string, number>();
  events.forEach((event, index) => {
    if (event.type === "tool.started") {
      expect(started.has(event.itemId), `tool ${event.itemId} started twice`).toBe(false);
      started.set(event.itemId, index);
    }
    if (event.type === "tool.completed") {
      expect(completed.has(event.itemId), `tool ${event.itemId} completed twice`).toBe(false);
      expect(started.get(event.itemId), `tool ${event.itemId} completed before it started`).toBeLessThan(
        index,
      );
      completed.set(event.itemId, index);
    }
    if (event.type === "tool.output" || event.type === "file.changed")
      expect(completed.has(event.itemId), `${event.type} of ${event.itemId} after its completion`).toBe(
        false,
      );
  });
  expect([...started.keys()].sort()).toEqual([...completed.keys()].sort());
  const textDone = new Set<string>();
  for (const event of events) {
    if (event.type === "text.completed") textDone.add(event.itemId);
    if (event.type === "text.delta") expect(textDone.has(event.itemId)).toBe(false);
  }
}
