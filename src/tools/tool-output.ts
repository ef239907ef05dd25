/** What an app tool's handler returned, as the content parts that go back to the agent. Pure. */
import { errorMessage } from "../errors.js";
import type { AppToolContent } from "../harness/events.js";
import { isRecord } from "../json-record.js";
import { capToolOutput } from "./tool-output-cap.js";

/** The content parts of a call's answer, or why the return value cannot be sent. */
export type ToolOutput = { ok: true; content: AppToolContent[] } | { ok: false; error: string };

function isContentPart(value: unknown): value is AppToolContent {
  if (!isRecord(value)) return false;
  if (value.type === "text") return typeof value.text === "string";
  if (value.type === "image") return typeof value.url === "string" && /^(https?:|data:)/.test(value.url);
  return false;
}

/**
 * A handler's return value as content parts: a string is one text part; `{ content: [...] }` whose every entry
 * is a text or image part is sent as it is; `undefined` is an empty text; any other value is its JSON text
 * (a value JSON cannot encode, a `bigint` or a cycle, is an error the agent is told about). An answer larger
 * than 4 MiB as JSON (`MAX_TOOL_OUTPUT_BYTES`) is cut to it ({@link capToolOutput}).
 */
export function toolOutput(value: unknown): ToolOutput {
  const output = contentOf(value);
  return output.ok ? { ok: true, content: capToolOutput(output.content) } : output;
}

function contentOf(value: unknown): ToolOutput {
  if (typeof value === "string") return { ok: true, content: [{ type: "text", text: value }] };
  if (value === undefined) return { ok: true, content: [{ type: "text", text: "" }] };
  if (isRecord(value) && Object.keys(value).length === 1 && Array.isArray(value.content)) {
    const parts: unknown[] = value.content;
    if (parts.every(isContentPart)) return { ok: true, content: parts.map((part) => ({ ...part })) };
  }
  try {
    const text = JSON.stringify(value);
    if (typeof text !== "string") return { ok: false, error: `the tool returned ${typeof value}, not JSON` };
    return { ok: true, content: [{ type: "text", text }] };
  } catch (error) {
    return { ok: false, error: `the tool's result is not JSON: ${errorMessage(error)}` };
  }
}
