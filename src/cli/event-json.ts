import type {
  HarnessEvent,
  ReasoningDeltaEvent,
  TextDeltaEvent,
  ToolOutputEvent,
} from "../harness/events.js";
import { SHORT_STRING, utf8Bound, type Utf8Chunks } from "./utf8-chunks.js";

/** The streamed-text events, which come by the thousand and differ from one another mostly in `seq` and text. */
type DeltaEvent = TextDeltaEvent | ReasoningDeltaEvent | ToolOutputEvent;

const json = JSON.stringify;
const SEQ_OPEN = Buffer.from('{"seq":');
const LINE_FEED = 0x0a;
const CLOSE_BRACE = 0x7d;
/** What follows a reasoning delta's text, by kind (its last field). */
const KIND_TAIL = new Map<string, Buffer>(
  ["summary", "content"].map((kind) => [kind, Buffer.from(`,"kind":${json(kind)}`)]),
);
/** The most UTF-8 bytes one UTF-16 unit takes in `JSON.stringify`'s output (an escape such as `\u001f`). */
const MAX_JSON_BYTES_PER_UNIT = 6;
/** Room for `{"seq":`, the number, the closing brace and the line feed. */
const FRAME_BYTES = SEQ_OPEN.length + 16 + 2;

/**
 * Writes a session's events as UTF-8 JSON lines, each the text `JSON.stringify(event)` gives, character for
 * character, for events whose fields come in the order a session stamps them (the order of their declarations
 * in `harness/events.ts`). Delta events are written from a template: the part between `seq` and the text
 * (stamp, type, item and tool) is encoded once and reused while it stays the same, which it does across a burst
 * of deltas. One encoder per stream.
 */
export class EventJsonEncoder {
  #head = Buffer.alloc(0);
  #type = "";
  #harness = "";
  #sessionId = "";
  #turnId: string | null = null;
  #at = "";
  #itemId = "";
  #tool = "";

  /** Appends `event` and a line feed to `out`. */
  write(event: HarnessEvent, out: Utf8Chunks): void {
    switch (event.type) {
      case "text.delta":
        this.#writeDelta(event, "", null, out);
        return;
      case "reasoning.delta": {
        const tail = KIND_TAIL.get(event.kind);
        if (tail) this.#writeDelta(event, "", tail, out);
        else writeGeneric(event, out); // a kind with no template: the generic path keeps the text exact
        return;
      }
      case "tool.output":
        this.#writeDelta(event, event.tool, null, out);
        return;
      default:
        writeGeneric(event, out);
    }
  }

  #writeDelta(event: DeltaEvent, tool: string, tail: Buffer | null, out: Utf8Chunks): void {
    const head = this.#headOf(event, tool);
    // a short text (a delta mostly is) is written as it is when it needs no escape, else through JSON.stringify
    const short = event.text.length <= SHORT_STRING;
    const longText = short ? "" : json(event.text);
    const textBytes = short ? event.text.length * MAX_JSON_BYTES_PER_UNIT + 2 : utf8Bound(longText);
    out.reserve(FRAME_BYTES + head.length + textBytes + (tail?.length ?? 0));
    out.bytes(SEQ_OPEN);
    out.uint(event.seq);
    out.bytes(head);
    if (!short) out.string(longText);
    else if (!out.plainJsonString(event.text)) out.string(json(event.text));
    if (tail) out.bytes(tail);
    out.byte(CLOSE_BRACE);
    out.byte(LINE_FEED);
  }

  /** `,"harness":…,"sessionId":…,"turnId":…,"at":…,"type":…,"itemId":…,` (and `"tool":…,`) `"text":`, cached. */
  #headOf(event: DeltaEvent, tool: string): Buffer {
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
      this.#head = Buffer.from(
        `,"harness":${json(event.harness)},"sessionId":${json(event.sessionId)},"turnId":${json(event.turnId)}` +
          `,"at":${json(event.at)},"type":${json(event.type)},"itemId":${json(event.itemId)},${toolField}"text":`,
      );
    }
    return this.#head;
  }
}

function writeGeneric(event: HarnessEvent, out: Utf8Chunks): void {
  const text = json(event);
  out.reserve(utf8Bound(text) + 1);
  out.string(text);
  out.byte(LINE_FEED);
}
