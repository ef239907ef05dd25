import { asRecord, isRecord } from "../json-record.js";
import type { RecordedRequest } from "./model-response-plan.js";

/** True when the request's `input` holds a `function_call_output` after its last user message. */
export function hasToolOutputSinceLastUserMessage(request: RecordedRequest): boolean {
  const input = asRecord(request.body).input;
  if (!Array.isArray(input)) return false;
  let sawOutput = false;
  for (const item of input as unknown[]) {
    if (!isRecord(item)) continue;
    if (item.role === "user" && (item.type === "message" || item.type === undefined)) sawOutput = false;
    else if (item.type === "function_call_output" || item.type === "custom_tool_call_output")
      sawOutput = true;
  }
  return sawOutput;
}

/** Whether the model request offers a function tool `name`. */
export function offersTool(request: RecordedRequest, name: string): boolean {
  const tools = asRecord(request.body).tools;
  return Array.isArray(tools) && tools.some((tool) => asRecord(tool).name === name);
}
