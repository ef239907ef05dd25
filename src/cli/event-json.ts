import type {
  HarnessEvent,
  ReasoningDeltaEvent,
  TextDeltaEvent,
  ToolOutputEvent,
} from "../harness/events.js";

/** The streamed-text events, which come by the thousand and differ from one another mostly in `seq` and text. */
type DeltaEvent = TextDeltaEvent | ReasoningDeltaEvent | ToolOutputEvent;

const json = JSON.stringify;

/**
 * Encodes a session's events as the JSON text `JSON.stringify(event)` gives, character for character, for
 * events whose fields come in the order a session stamps them (the order of their declarations in
 * `harness/events.ts`). Delta events are written from a template: the part between `seq` and the text (stamp,
 * type, item and tool) is serialised once and reused while it stays the same, which it does across a burst of
 * deltas. One encoder per stream.
 */
export class EventJsonEncoder {
  #head = "";
  #type = "";
  #harness = "";
  #sessionId = "";
  #turnId: string | null = null;
  #at = "";
  #itemId = "";
  #tool = "";

  encode(event: HarnessEvent): string {
    switch (event.type) {
      case "text.delta":
        return `{"seq":${event.seq}${this.#headOf(event, "")}"text":${json(event.text)}}`;
      case "reasoning.delta":
        return `{"seq":${event.seq}${this.#headOf(event, "")}"text":${json(event.text)},"kind":${json(event.kind)}}`;
      case "tool.output":
        return `{"seq":${event.seq}${this.#headOf(event, event.tool)}"text":${json(event.text)}}`;
      default:
        return json(event);
    }
  }

  /** `,"harness":…,"sessionId":…,"turnId":…,"at":…,"type":…,"itemId":…,` (and `"tool":…,`), cached. */
  #headOf(event: DeltaEvent, tool: string): string {
    if (
      event.type !== this.#type ||
      event.at !== this.#at ||
      event.itemId !== this.#itemId ||
      event.turnId !== this.#turnId ||
      event.sessionId !== this.#sessionId ||
      event.harness !== this.#harness ||
      tool !== this.#tool
    ) {
      this.#type = event.type;
      this.#at = event.at;
      this.#itemId = event.itemId;
      this.#turnId = event.turnId;
      this.#sessionId = event.sessionId;
      this.#harness = event.harness;
      this.#tool = tool;
      const toolField = event.type === "tool.output" ? `"tool":${json(tool)},` : "";
      this.#head =
        `,"harness":${json(event.harness)},"sessionId":${json(event.sessionId)},"turnId":${json(event.turnId)}` +
        `,"at":${json(event.at)},"type":${json(event.type)},"itemId":${json(event.itemId)},${toolField}`;
    }
    return this.#head;
  }
}
