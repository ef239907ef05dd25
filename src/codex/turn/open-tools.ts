import type { AgentToolKind, EventBody } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import { toolTitle } from "./tool-items.js";

type Json = Record<string, unknown>;

/** Tool items started in the owned turn and not completed yet; every one ends with a `tool.completed`. */
export class OpenTools {
  readonly #open = new Map<string, { tool: AgentToolKind; item: Json }>();

  get size(): number {
    return this.#open.size;
  }

  has(itemId: string): boolean {
    return this.#open.has(itemId);
  }

  /** The native item of an open tool call. */
  item(itemId: string): Json | undefined {
    return this.#open.get(itemId)?.item;
  }

  start(itemId: string, tool: AgentToolKind, item: Json): void {
    this.#open.set(itemId, { tool, item });
  }

  complete(itemId: string): void {
    this.#open.delete(itemId);
  }

  /**
   * Completes open tools from `items` (a turn's item list): with `listedOnly`, only those it lists in a final
   * state; otherwise all, those it does not list (or lists in progress) with `status: "unknown"`.
   */
  close(items: unknown, listedOnly: boolean): EventBody[] {
    const listed = new Map<string, Json>();
    if (Array.isArray(items))
      for (const entry of items)
        if (isRecord(entry) && typeof entry.id === "string") listed.set(entry.id, entry);
    const events: EventBody[] = [];
    for (const [itemId, open] of this.#open) {
      const entry = listed.get(itemId);
      const status = entry && typeof entry.status === "string" ? entry.status : null;
      const final = status !== null && status !== "inProgress";
      if (listedOnly && !final) continue;
      const item = entry ?? open.item;
      events.push({
        type: "tool.completed",
        itemId,
        tool: open.tool,
        title: toolTitle(item),
        status: final ? status : "unknown",
        exitCode: final && typeof item.exitCode === "number" ? item.exitCode : null,
        item,
      });
      this.#open.delete(itemId);
    }
    return events;
  }
}
