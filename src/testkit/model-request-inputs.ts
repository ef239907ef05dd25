/** What a recorded model request carries: the tools offered, the tool outputs in its input. Pure. */
import { asRecord, isRecord } from "../json-record.js";
import type { RecordedRequest } from "./model-response-plan.js";

/** Whether the model request offers a top-level function tool `name`. */
export function offersFunction(request: RecordedRequest, name: string): boolean {
  const tools = asRecord(request.body).tools;
  return Array.isArray(tools) && tools.some((tool) => asRecord(tool).name === name);
}

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

/**
 * Every `function_call_output` in the request's `input`, in order: its `call_id` and `output` (a string, or the
 * text of its `input_text` parts joined, as codex 0.100 sends an app tool's answer).
 */
export function functionCallOutputs(
  request: RecordedRequest | undefined,
): { callId: string; output: string }[] {
  const input = request === undefined ? undefined : asRecord(request.body).input;
  if (!Array.isArray(input)) return [];
  return input.filter(isRecord).flatMap((item) => {
    if (item.type !== "function_call_output") return [];
    const output = Array.isArray(item.output)
      ? item.output.map((part) => String(asRecord(part).text ?? "")).join("")
      : String(item.output ?? "");
    return [{ callId: String(item.call_id ?? ""), output }];
  });
}

/**
 * The tool and arguments that make the codex behind `request` run `cmd`: `exec_command`, or `shell` with
 * `["bash", "-lc", cmd]` where codex offers only that tool (before 0.98).
 */
export function commandToolCall(
  request: RecordedRequest,
  cmd: string,
  options: { yieldTimeMs?: number | undefined; extraArguments?: Record<string, unknown> | undefined },
): [string, Record<string, unknown>] {
  const yieldTimeMs = options.yieldTimeMs ?? 10_000;
  return offersFunction(request, "shell") && !offersFunction(request, "exec_command")
    ? ["shell", { command: ["bash", "-lc", cmd], timeout_ms: yieldTimeMs, ...options.extraArguments }]
    : ["exec_command", { cmd, yield_time_ms: yieldTimeMs, ...options.extraArguments }];
}
