import type { AppToolContent } from "../harness/events.js";

/**
 * The most a call's answer may take as JSON (UTF-8 bytes). The agent echoes the answer back in one line of its
 * output, and Rennet reads lines of at most 16 MiB: a quarter of that leaves room for the line's other fields
 * and a second echo.
 */
const MAX_TOOL_OUTPUT_BYTES = 4 * 1024 * 1024;

const encodedBytes = (part: AppToolContent): number => Buffer.byteLength(JSON.stringify(part), "utf8");

/**
 * `content` cut to `maxBytes` as JSON: the parts that fit are kept, the first text that does not is cut to
 * fit, an image that does not is replaced by a note, and the rest is left out; a last text part says what was
 * cut. `content` itself when it fits. Pure.
 */
export function capToolOutput(
  content: readonly AppToolContent[],
  maxBytes: number = MAX_TOOL_OUTPUT_BYTES,
): AppToolContent[] {
  const sizes = content.map(encodedBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return [...content];
  const note: AppToolContent = {
    type: "text",
    text: `[Rennet cut this result to ${mib(maxBytes)} of its ${mib(total)}: a tool's answer travels in one line of the agent's output]`,
  };
  let room = maxBytes - encodedBytes(note);
  const kept: AppToolContent[] = [];
  for (const [index, part] of content.entries()) {
    const size = sizes[index] ?? 0;
    if (size <= room) {
      kept.push(part);
      room -= size;
      continue;
    }
    if (part.type === "text") kept.push({ type: "text", text: textWithin(part.text, room) });
    else kept.push({ type: "text", text: `[an image of ${mib(size)} was left out]` });
    break;
  }
  return [...kept, note];
}

/** The longest start of `text` whose JSON form (a text part) takes at most `room` bytes; "" when none. */
function textWithin(text: string, room: number): string {
  let length = Math.min(text.length, Math.max(0, room));
  let cut = startOf(text, length);
  while (length > 0 && encodedBytes({ type: "text", text: cut }) > room) {
    length = Math.floor(length * 0.9);
    cut = startOf(text, length);
  }
  return length > 0 ? cut : "";
}

/** The first `length` UTF-16 units of `text`, without a lone high surrogate at the end. */
function startOf(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
