/**
 * Reading the `tool_result` blocks of Claude Code's `user` lines: their text, a command's exit status and a
 * tool's status. Pure; tolerant of every odd shape.
 */
import { isRecord } from "../json-record.js";

type Json = Record<string, unknown>;

/** One `tool_result` content block. */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The result's text: a string content, or its text parts joined (an image part reads `[image]`). */
  text: string;
  block: Json;
}

/** The `tool_result` blocks among a user message's content blocks, in order. */
export function toolResultsOf(blocks: readonly Json[]): ToolResult[] {
  return blocks.flatMap((block) => {
    if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") return [];
    return [
      {
        toolUseId: block.tool_use_id,
        isError: block.is_error === true,
        text: resultText(block.content),
        block,
      },
    ];
  });
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (!isRecord(part)) return "";
      if (part.type === "text" && typeof part.text === "string") return part.text;
      return part.type === "image" ? "[image]" : "";
    })
    .join("");
}

/** A command's result: its exit status when Claude said it, and its output without the status line. */
export interface CommandOutcome {
  exitCode: number | null;
  output: string;
}

/** Claude reports a failed command as `Exit code N` on the first line of an error result, output after it. */
const EXIT_CODE_LINE = /^Exit code (\d{1,3})(?:\r?\n|$)/;

/**
 * A Bash result's exit status. Claude has no exit code field: an error result whose text starts with
 * `Exit code N` exited N (137 when killed); a successful result exited 0, unless it is still running in the
 * background (`backgroundTaskId`) or was interrupted, which have no status yet; any other error (refused before
 * running, rejected, interrupted) has none.
 */
export function commandOutcome(result: ToolResult, toolUseResult: unknown): CommandOutcome {
  if (result.isError) {
    const match = EXIT_CODE_LINE.exec(result.text);
    if (match) return { exitCode: Number(match[1]), output: result.text.slice(match[0].length) };
    return { exitCode: null, output: result.text };
  }
  const view = isRecord(toolUseResult) ? toolUseResult : {};
  const running = typeof view.backgroundTaskId === "string" || view.interrupted === true;
  return { exitCode: running ? null : 0, output: result.text };
}

/**
 * A tool's status: `declined` when Claude reported a permission denial for it, `failed` for an error result,
 * else the native `status` of Claude's own view of the result (a subagent's `completed` or `async_launched`),
 * else `completed`.
 */
export function toolStatus(result: ToolResult, toolUseResult: unknown, denied: boolean): string {
  if (denied) return "declined";
  if (result.isError) return "failed";
  if (isRecord(toolUseResult) && typeof toolUseResult.status === "string" && toolUseResult.status !== "")
    return toolUseResult.status;
  return "completed";
}
